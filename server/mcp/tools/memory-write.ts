import { z } from "zod";
import { createMemory } from "../../domain/memory/memories";
import { ZCreateMemoryInput, ZThreadName } from "../../domain/memory/schemas";
import { resolveScope } from "../../domain/memory/working-scope";
import { HELD, isoTime, scopeArg, WRITES, ZHeld, ZTime } from "./common";
import { defineTool } from "./define";

const C = ZCreateMemoryInput.shape;

/** What a held write will do once admitted, said so the agent does not assume it done. */
function heldEffects(w: { supersedes: string | null; threads: string[] }): string {
  const then = [
    w.supersedes ? `supersede ${w.supersedes}` : null,
    w.threads.length ? `join ${w.threads.join(", ")}` : null,
  ].filter(Boolean);
  return then.length ? ` Once admitted it will ${then.join(" and ")}; not before.` : "";
}

export const remember = defineTool({
  name: "remember",
  title: "Remember",
  description:
    "Save (store) one new memory for later: a note, fact, preference or decision worth keeping, so that future agents will know it; note it down the moment you learn it. Memories never change: to correct one, save the correction with supersedes naming the old one's id.",
  inputSchema: z.object({
    body: C.body.describe("What to remember, in Markdown (at most 65,536 bytes of UTF-8)."),
    kind: C.kind.describe("Kind of memory; note if omitted."),
    tags: C.tags.describe("Up to 32 tags (lower-cased) to find it by."),
    thread: ZThreadName.optional().describe("A thread (by name) to file it in; created if missing."),
    occurredAt: isoTime("When it happened; now when omitted").optional(),
    supersedes: C.supersedes.describe("Id of an earlier memory this one corrects (same scope)."),
    scope: scopeArg,
  }),
  outputSchema: z.object({
    id: z.string().describe("The new memory's id (qm://memory/{id})."),
    scope: z.string(),
    kind: z.string(),
    occurredAt: ZTime,
    supersedes: z.string().nullable(),
    threads: z.array(z.string()),
    quarantined: ZHeld,
  }),
  annotations: WRITES,
  errors: ["INVALID_ARGUMENTS", "SCOPE_ACCESS_DENIED", "MEMORY_TOO_LARGE", "NOT_FOUND", "CONFLICT"],
  async handler(input, { actor }) {
    const scope = await resolveScope(actor, input.scope, "write");
    const { scope: _s, thread, ...rest } = input;
    const written = await createMemory(actor, { ...rest, scopeId: scope.id, threads: thread ? [thread] : [] });
    return {
      structured: {
        id: written.id,
        scope: scope.name,
        kind: written.kind,
        occurredAt: written.occurredAt.toISOString(),
        supersedes: written.supersedes,
        threads: written.threads,
        quarantined: written.quarantined,
      },
      text: written.quarantined
        ? `Remembered ${written.id} (${written.kind}) in scope "${scope.name}", held for review. ${HELD}${heldEffects(written)}`
        : `Remembered ${written.id} (${written.kind}) in scope "${scope.name}"${written.supersedes ? `, superseding ${written.supersedes}` : ""}.`,
    };
  },
});
