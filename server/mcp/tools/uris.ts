/**
 * The qm:// addresses /mcp gives memories and threads, built and read in one place (tools
 * emit them as resource_link blocks; resources.ts serves them).
 */
export const MEMORY_URI_TEMPLATE = "qm://memory/{id}";
export const THREAD_URI_TEMPLATE = "qm://thread/{name}";

export const memoryUri = (id: string) => `qm://memory/${encodeURIComponent(id)}`;
export const threadUri = (name: string) => `qm://thread/${encodeURIComponent(name)}`;

/** The memory id or thread name a qm:// URI addresses, or null for anything else. */
export function parseQmUri(uri: string): { kind: "memory" | "thread"; key: string } | null {
  const match = /^qm:\/\/(memory|thread)\/([^/?#]+)$/.exec(uri);
  if (!match) return null;
  try {
    return { kind: match[1] as "memory" | "thread", key: decodeURIComponent(match[2] as string) };
  } catch {
    return null;
  }
}
