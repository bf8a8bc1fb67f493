"use client";

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
