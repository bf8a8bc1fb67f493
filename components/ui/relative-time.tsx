"use client";

import type { ReactNode } from "react";
import { formatDateTime, formatRelative } from "./format";
import { Td } from "./table";
import type { Column } from "./virtual-list/virtual-table";

/** A moment as people read it ("3 minutes ago"), the exact time on hover and in the markup; "never" when there is none. */
export function RelativeTime({ at, now }: { at: Date | string | null | undefined; now?: number }) {
  if (!at) return <>never</>;
  return (
    <time dateTime={new Date(at).toISOString()} title={formatDateTime(at)}>
      {formatRelative(at, now)}
    </time>
  );
}

/** The classes of a table cell holding a moment. */
export const MOMENT = "whitespace-nowrap text-muted";

/** A table cell holding one moment. */
export function TimeCell({
  at,
  now,
  testId,
  children,
}: {
  at: Date | string | null | undefined;
  now?: number;
  testId?: string;
  /** After the time, e.g. " by ada@example.com". */
  children?: ReactNode;
}) {
  return (
    <Td className={MOMENT} data-testid={testId}>
      <RelativeTime at={at} now={now} />
      {children}
    </Td>
  );
}

/** A table column of one moment per row, for RowsTable and VirtualTable alike. */
export function momentColumn<T>(
  key: string,
  header: string,
  at: (row: T) => Date | string | null | undefined,
  now?: number,
  extra: Partial<Column<T>> = {},
): Column<T> {
  return { key, header, className: MOMENT, cell: (row) => <RelativeTime at={at(row)} now={now} />, ...extra };
}
