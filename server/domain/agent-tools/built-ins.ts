/**
 * The names of /mcp's built-in tools (PRODUCT.md §4). A catalog Tool never gets one of
 * them as its model-facing name, so a Source publishing its own "search" cannot shadow
 * the memory tool, or be shadowed by it, for any identity.
 */
export const BUILT_IN_TOOL_NAMES: ReadonlySet<string> = new Set([
  "search",
  "get_memories",
  "briefing",
  "debrief",
  "handoff",
  "configure_scope",
  "get_facts",
  "threads",
  "review_proposals",
  "remember",
  "find_tools",
  "call_tool",
]);
