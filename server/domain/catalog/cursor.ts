/**
 * The catalog's page cursors: positions in the sorted, filtered list. Opaque to API
 * clients; the console builds them itself to fetch the rows around any scroll position
 * without paging through everything before it. Pure, so the browser bundle can use it.
 */
import { DomainError } from "../../errors";

export function offsetCursor(offset: number): string | undefined {
  return offset > 0 ? `o${offset}` : undefined;
}

export function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  const offset = /^o(\d{1,9})$/.exec(cursor)?.[1];
  if (offset === undefined)
    throw new DomainError("INVALID_INPUT", "cursor: not a cursor from this API", { field: "cursor" });
  return Number(offset);
}
