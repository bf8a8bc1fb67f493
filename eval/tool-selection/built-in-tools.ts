/**
 * The built-in /mcp tools as the tool-selection eval reads them. INTERIM: until the
 * built-in registry (server/mcp/tools/registry.ts, issue 12) lands, this is a first draft of
 * their descriptions from PRODUCT.md §4; the eval then reads the registry itself.
 */
import type { ToolText } from "@/server/domain/tool-selection/tool-text";

const obj = (properties: Record<string, { type?: string; description?: string; enum?: string[] }>) => ({
  type: "object",
  properties,
});

export function builtInToolTexts(): ToolText[] {
  return [
    {
      name: "search",
      title: "Search memory",
      description:
        "Search the memories of the working scope by meaning and keywords. Returns ranked hits with truncated bodies; read a truncated hit in full with get_memories.",
      inputSchema: obj({
        query: { type: "string", description: "What to look for." },
        scope: { type: "string", description: "Scope to search; the working scope if omitted." },
        kind: { type: "string", description: "Only memories of this kind." },
        tags: { type: "array", description: "Only memories with these tags." },
        thread: { type: "string", description: "Only memories in this thread." },
        limit: { type: "integer", description: "Most hits to return." },
      }),
    },
    {
      name: "get_memories",
      title: "Get memories",
      description: "Read the full bodies of memories by id, in one batched call.",
      inputSchema: obj({
        ids: { type: "array", description: "Memory ids." },
        scope: { type: "string", description: "Scope; the working scope if omitted." },
      }),
    },
    {
      name: "remember",
      title: "Remember",
      description: "Write a new memory to the working scope.",
      inputSchema: obj({
        body: { type: "string", description: "The memory's text." },
        kind: { type: "string", description: "Kind of memory." },
        tags: { type: "array", description: "Tags." },
        thread: { type: "string", description: "Thread to add it to." },
        occurredAt: { type: "string", description: "When it happened, ISO time." },
        supersedes: { type: "string", description: "Id of a memory this one replaces." },
        scope: { type: "string", description: "Scope; the working scope if omitted." },
      }),
    },
    {
      name: "briefing",
      title: "Briefing",
      description:
        "What an agent starting work in this scope should know: pinned and recent decisions, open threads and pending proposals.",
      inputSchema: obj({ scope: { type: "string", description: "Scope; the working scope if omitted." } }),
    },
    {
      name: "debrief",
      title: "Debrief",
      description: "Record what a session did and learned as memories, in one call.",
      inputSchema: obj({
        summary: { type: "string", description: "What the session did." },
        learnings: { type: "array", description: "What it learned." },
        scope: { type: "string", description: "Scope; the working scope if omitted." },
      }),
    },
    {
      name: "handoff",
      title: "Hand off",
      description: "Write a handoff memory addressed to a thread or an identity; their next briefing returns it.",
      inputSchema: obj({
        body: { type: "string", description: "What to hand off." },
        thread: { type: "string", description: "Thread to address." },
        identity: { type: "string", description: "Agent Identity to address." },
        scope: { type: "string", description: "Scope; the working scope if omitted." },
      }),
    },
    {
      name: "configure_scope",
      title: "Configure scope",
      description: "Set this token's working scope among the scopes it is granted.",
      inputSchema: obj({ scope: { type: "string", description: "The scope to work in." } }),
    },
    {
      name: "get_facts",
      title: "Get facts",
      description: "Facts stated by memories, in chronological order; current facts by default, or those of a range.",
      inputSchema: obj({
        subject: { type: "string", description: "Whose facts." },
        from: { type: "string", description: "Start of the range, ISO time." },
        to: { type: "string", description: "End of the range, ISO time." },
        scope: { type: "string", description: "Scope; the working scope if omitted." },
      }),
    },
    {
      name: "threads",
      title: "Threads",
      description: "Curate threads: create, rename, archive, delete, add or remove memories, pin or unpin.",
      inputSchema: obj({
        action: {
          type: "string",
          enum: ["create", "rename", "archive", "delete", "add", "remove", "pin", "unpin"],
          description: "What to do.",
        },
        thread: { type: "string", description: "Thread name." },
        memoryIds: { type: "array", description: "Memories to add, remove, pin or unpin." },
        newName: { type: "string", description: "New name when renaming." },
        scope: { type: "string", description: "Scope; the working scope if omitted." },
      }),
    },
    {
      name: "review_proposals",
      title: "Review proposals",
      description: "List the consolidator's pending proposals, accept one, or reject one with a reason.",
      inputSchema: obj({
        action: { type: "string", enum: ["list", "accept", "reject"], description: "What to do." },
        proposalId: { type: "string", description: "The proposal to accept or reject." },
        reason: { type: "string", description: "Why it is rejected." },
        scope: { type: "string", description: "Scope; the working scope if omitted." },
      }),
    },
    {
      name: "find_tools",
      title: "Find Tools",
      description:
        "Search this agent's own Tools by name and description. Use it when the Tool you need is not among those in view: it returns the best matches, each with the exact name to call.",
      inputSchema: obj({
        query: { type: "string", description: "Words the Tool's name or description contains, e.g. 'create invoice'." },
        limit: { type: "integer", description: "Most matches to return; 10 if omitted." },
      }),
    },
  ];
}
