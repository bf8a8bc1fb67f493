/**
 * /mcp's resources: a memory by id (qm://memory/{id}, its immutable body: cache it long)
 * and a thread's index in the working scope (qm://thread/{name}: members change, cache it
 * briefly). resources/list enumerates nothing and ids are never completed: a corpus is not
 * listed through a side door (PRODUCT.md §4). Plain objects; server.ts hands them to the SDK.
 */
import type { Actor } from "../actor";
import { recordFollows } from "../domain/memory/link-evidence";
import { getMemory } from "../domain/memory/memories";
import { getThreadByName } from "../domain/memory/threads";
import { resolveScope } from "../domain/memory/working-scope";
import { DomainError, isDomainError } from "../errors";
import { FLAGGED_NOTE } from "./tools/common";
import { MEMORY_URI_TEMPLATE, memoryUri, parseQmUri, THREAD_URI_TEMPLATE, threadUri } from "./tools/uris";

/** How long a client may keep what it read; MCP has no cache field, so `_meta` carries it. */
const MEMORY_CACHE = { "quartermaster/cache": { immutable: true, maxAgeSeconds: 31_536_000 } };
const THREAD_CACHE = { "quartermaster/cache": { immutable: false, maxAgeSeconds: 30 } };
const FLAGGED_CACHE = THREAD_CACHE;

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: MEMORY_URI_TEMPLATE,
    name: "memory",
    title: "Memory",
    description:
      "One memory's Markdown body by id. Bodies never change (a correction is a new memory), so a copy may be kept for a year.",
    mimeType: "text/markdown",
    annotations: { audience: ["assistant" as const], priority: 0.5 },
    _meta: MEMORY_CACHE,
  },
  {
    uriTemplate: THREAD_URI_TEMPLATE,
    name: "thread",
    title: "Thread index",
    description:
      "A thread of the working scope: its member memories' ids, kinds, times, titles and pins (pinned first), as JSON. Membership changes: cache it briefly.",
    mimeType: "application/json",
    annotations: { audience: ["assistant" as const], priority: 0.5 },
    _meta: THREAD_CACHE,
  },
];

const noResourceAt = (uri: string) =>
  new DomainError("NOT_FOUND", `No resource at ${uri}: /mcp serves qm://memory/{id} and qm://thread/{name}.`, { uri });

/** An id or name no memory or thread could have (too long, blank) names no resource: a miss, not bad input. */
const missIfInvalid = (uri: string) => (error: unknown) => {
  throw isDomainError(error) && error.code === "INVALID_INPUT" ? noResourceAt(uri) : error;
};

export async function readResource(actor: Actor, uri: string) {
  const parsed = parseQmUri(uri);
  if (!parsed) throw noResourceAt(uri);
  if (parsed.kind === "memory") {
    const memory = await getMemory(actor, { id: parsed.key }).catch(missIfInvalid(uri));
    await recordFollows(actor, "resource", [memory.id]);
    const body =
      memory.body ?? `This memory was erased${memory.erasedAt ? ` on ${memory.erasedAt.toISOString()}` : ""}.`;
    // As search and get_memories say it: flagged, never which rule fired; a model reading
    // only the text meets the warning before the body.
    const text = memory.flagged ? `${FLAGGED_NOTE}\n\n${body}` : body;
    return {
      contents: [
        {
          uri: memoryUri(memory.id),
          mimeType: "text/markdown",
          text,
          _meta: {
            // A curator may clear the flag, and the warning with it: not a copy to keep a year.
            ...(memory.flagged ? FLAGGED_CACHE : MEMORY_CACHE),
            "quartermaster/memory": {
              kind: memory.kind,
              scope: memory.scopeName,
              occurredAt: memory.occurredAt.toISOString(),
              state: memory.state,
              supersededById: memory.supersededById,
              flagged: memory.flagged,
            },
          },
        },
      ],
    };
  }
  const scope = await resolveScope(actor, undefined, "read");
  const thread = await getThreadByName(actor, scope.id, parsed.key).catch(missIfInvalid(uri));
  const index = {
    scope: thread.scopeName,
    thread: thread.name,
    description: thread.description,
    archived: thread.archivedAt !== null,
    memberCount: thread.memberCount,
    members: thread.members.map((m) => ({
      id: m.id,
      uri: memoryUri(m.id),
      kind: m.kind,
      title: m.title,
      occurredAt: m.occurredAt.toISOString(),
      pinned: m.pinned,
      state: m.state,
    })),
  };
  return {
    contents: [
      { uri: threadUri(thread.name), mimeType: "application/json", text: JSON.stringify(index), _meta: THREAD_CACHE },
    ],
  };
}
