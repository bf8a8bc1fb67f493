/**
 * The browser-safe part of paging (server/domain/paging.ts): the offset cursor the console
 * builds itself to fetch the rows around any scroll position (components/ui/virtual-list).
 */
export function offsetCursor(offset: number): string | undefined {
  return offset > 0 ? `o${offset}` : undefined;
}
