/** Every item of a paged MCP list, page by page (the v2 client reads them all itself; the 1.x clients give one page a call). */
export async function everyPage<K extends string>(
  list: (params: { cursor?: string }) => Promise<{ nextCursor?: string } & Record<K, unknown>>,
  member: K,
) {
  const items: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(cursor ? { cursor } : {});
    items.push(...(page[member] as Record<string, unknown>[]));
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}
