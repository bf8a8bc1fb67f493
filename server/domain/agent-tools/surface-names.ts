/**
 * The names an agent reaches a Source's resources and prompts by at /mcp: resource URIs
 * mapped to `qm://source/<source id>/<the Source's own URI>` so two Sources never clash (a
 * template keeps its expressions, since the prefix is a literal), prompts namespaced
 * `<prompt prefix>_<prompt>` (prompt-prefix.ts). Shared by /mcp and the console's view of
 * what a catalog check recorded.
 */
export const SOURCE_URI_PREFIX = "qm://source/";

export const proxiedUri = (sourceId: string, uri: string) => `${SOURCE_URI_PREFIX}${sourceId}/${uri}`;

/** The Source and its own URI behind a proxied one, or null for any other URI. */
export function parseProxiedUri(uri: string): { sourceId: string; uri: string } | null {
  if (!uri.startsWith(SOURCE_URI_PREFIX)) return null;
  const rest = uri.slice(SOURCE_URI_PREFIX.length);
  const slash = rest.indexOf("/");
  if (slash <= 0 || slash === rest.length - 1) return null;
  return { sourceId: rest.slice(0, slash), uri: rest.slice(slash + 1) };
}

/** A Source's prompt as the agent names it (the prefix is kept through renames: prompt-prefix.ts). */
export const proxiedPromptName = (source: { promptPrefix: string | null }, prompt: string) =>
  `${source.promptPrefix}_${prompt}`;
