"use client";

import type { ReactNode } from "react";
import { type QueryLike, QueryView } from "./query-view";
import { Table, Td, Th } from "./table";
import type { Column } from "./virtual-list/virtual-table";

/** The header of a row's buttons: read by screen readers, not shown. */
export const ACTIONS_HEADER = <span className="sr-only">Actions</span>;

/**
 * A short list as a table, every row in the DOM (a long or paged list uses VirtualTable):
 * each column declared once, its header and its cells together. `false` leaves a column out.
 */
export function RowsTable<T extends { id: string }>({
  label,
  columns,
  rows,
  rowTestId,
}: {
  label: string;
  columns: readonly (Column<T> | false)[];
  rows: readonly T[];
  rowTestId?: string;
}) {
  const shown = columns.filter((c): c is Column<T> => Boolean(c));
  return (
    <Table aria-label={label}>
      <thead>
        <tr>
          {shown.map((c) => (
            <Th key={c.key} className={c.headerClassName}>
              {c.header}
            </Th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} data-testid={rowTestId}>
            {shown.map((c) => (
              <Td key={c.key} className={c.className}>
                {c.cell(row)}
              </Td>
            ))}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** A query's rows as a RowsTable: loading rows, the error with a retry, `empty`, or the table. */
export function QueryTable<T extends { id: string }>({
  query,
  loadingLabel,
  loadingRows,
  empty,
  ...table
}: {
  query: QueryLike<T[]>;
  loadingLabel: string;
  loadingRows?: number;
  empty: ReactNode;
  label: string;
  columns: readonly (Column<T> | false)[];
  rowTestId?: string;
}) {
  return (
    <QueryView query={query} loadingLabel={loadingLabel} loadingRows={loadingRows} empty={empty}>
      {(rows) => <RowsTable {...table} rows={rows} />}
    </QueryView>
  );
}
