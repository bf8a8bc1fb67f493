/**
 * Paging for list procedures. Offset cursors ("o" and a position) serve lists whose sort
 * has no key to seek from (any catalog sort, merged histories); keyset cursors (the last
 * row's id) serve lists in one fixed order. Both are opaque to API clients; the console
 * builds offset cursors itself to fetch the rows around any scroll position
 * (components/ui/virtual-list, decisions/0017), so every list it shows answers
 * `{ items, total, nextCursor }` and takes an offset cursor, built with offsetCursor from
 * universal/paging.ts (the browser's part).
 */
import { DomainError } from "../errors";

export { offsetCursor } from "../../universal/paging";

/** The position an offset cursor stands for (0 without one). */
export function decodeOffsetCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  const offset = /^o(\d{1,9})$/.exec(cursor)?.[1];
  if (offset === undefined)
    throw new DomainError("INVALID_INPUT", "cursor: not a cursor from this API", { field: "cursor" });
  return Number(offset);
}

/** The cursor of the page after `shown` rows from `offset`, or null when none follows. */
export function nextOffsetCursor(offset: number, shown: number, total: number): string | null {
  const next = offset + shown;
  return next < total ? `o${next}` : null;
}

/** findMany arguments for the page after `cursor`, one row over to see whether more follow. */
export function keysetArgs(input: { cursor?: string; limit: number }) {
  return { take: input.limit + 1, ...(input.cursor ? { cursor: { id: input.cursor }, skip: 1 } : {}) };
}

/** The page from rows read with keysetArgs, and the cursor of the next one. */
export function keysetPage<T extends { id: string }>(rows: T[], limit: number) {
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  return { items, nextCursor: hasMore ? (items.at(-1)?.id ?? null) : null };
}

const OFFSET_CURSOR = /^o\d{1,9}$/;

/**
 * For lists that page by keyset for API clients (cheap however deep they go) and by
 * offset for the console (any scroll position at once): findMany arguments for either
 * kind of cursor, one row over to see whether more follow.
 */
export function pageArgs(input: { cursor?: string; limit: number }) {
  if (input.cursor && OFFSET_CURSOR.test(input.cursor))
    return { skip: decodeOffsetCursor(input.cursor), take: input.limit + 1 };
  return keysetArgs(input);
}

/**
 * The page from rows read with pageArgs: an offset cursor continues by offset, anything
 * else by keyset.
 */
export function pageOf<T extends { id: string }>(rows: T[], input: { cursor?: string; limit: number }) {
  const page = keysetPage(rows, input.limit);
  if (!input.cursor || !OFFSET_CURSOR.test(input.cursor)) return page;
  const offset = decodeOffsetCursor(input.cursor);
  return { items: page.items, nextCursor: page.nextCursor ? `o${offset + page.items.length}` : null };
}
