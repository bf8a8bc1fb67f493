import { z } from "zod";
import { briefScope } from "../../domain/memory/briefing";
import { recordDebrief } from "../../domain/memory/debrief";
import { createHandoff } from "../../domain/memory/handoffs";
import { recordTruncatedOffers } from "../../domain/memory/link-evidence";
import { ZDebriefInput, ZHandoffFields, ZScopeName, ZThreadName } from "../../domain/memory/schemas";
import { describeWorkingScope, resolveScope, setWorkingScope } from "../../domain/memory/working-scope";
import { HELD, line, noClient, scopeArg, WRITES, ZHeld, ZTime } from "./common";
import { defineTool } from "./define";
import { memoryUri } from "./uris";

const Brief = z.object({ id: z.string(), body: z.string(), truncated: z.boolean(), occurredAt: ZTime });

export const briefing = defineTool({
  name: "briefing",
  title: "Briefing",
  description:
    "Get oriented at the start of a session or task: catches you up on what matters in this scope right now, what to know first before you begin — its current state in pinned memories, the latest decisions, what is still open (threads, pending proposals), and handoff notes left for you (each returned once). Compact: bodies are truncated.",
  inputSchema: z.object({
    scope: scopeArg,
    thread: ZThreadName.optional().describe("Only this thread's pinned memories, decisions and handoffs."),
  }),
  outputSchema: z.object({
    scope: z.string(),
    thread: z.string().nullable(),
    pinned: z.array(Brief.extend({ kind: z.string(), thread: z.string() })),
    decisions: z.array(Brief),
    openThreads: z.array(z.object({ name: z.string(), members: z.number().int(), updatedAt: ZTime })),
    pendingProposals: z.object({
      total: z.number().int(),
      items: z.array(
        z.object({ id: z.string(), kind: z.string(), rationale: z.string(), memoryIds: z.array(z.string()) }),
      ),
    }),
    handoffs: z.array(
      Brief.extend({
        from: z.string(),
        to: z.object({ identity: z.string().optional(), thread: z.string().optional() }),
      }),
    ),
    handoffsWaiting: z
      .number()
      .int()
      .describe("Handoffs beyond this briefing's bound: the next briefing returns them."),
  }),
  // Not read-only: the handoffs it returns are marked delivered.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  errors: ["INVALID_ARGUMENTS", "SCOPE_ACCESS_DENIED", "NOT_FOUND"],
  async handler(input, { actor, client }) {
    const scope = await resolveScope(actor, input.scope, "read");
    const b = await briefScope(actor, { scopeId: scope.id, thread: input.thread });
    // A truncated body comes with a link to all of it, as search's hits do (additive:
    // get_memories stays the batched read); whether agents follow it is recorded.
    const truncated = [...b.handoffs, ...b.pinned, ...b.decisions].filter((m) => m.truncated);
    const links = [...new Map(truncated.map((m) => [m.id, m])).values()];
    await recordTruncatedOffers(
      actor,
      client ?? noClient,
      "briefing",
      links.map((m) => m.id),
    );
    const section = (title: string, lines: string[]) => (lines.length ? [`## ${title}`, ...lines, ""] : []);
    const text = [
      `# Briefing: scope "${b.scope}"${b.thread ? `, thread "${b.thread}"` : ""}`,
      "",
      ...section(
        "Handoffs for you",
        b.handoffs.map((h) => `${line(h, 400)} (from ${h.from})`),
      ),
      ...section(
        "Pinned",
        b.pinned.map((p) => `${line(p)} in ${p.thread}`),
      ),
      ...section(
        "Recent decisions",
        b.decisions.map((d) => line(d)),
      ),
      ...section(
        "Open threads",
        b.openThreads.map((t) => `- ${t.name} (${t.members} memories)`),
      ),
      b.pendingProposals.total
        ? `${b.pendingProposals.total} consolidator proposals are pending: review_proposals lists them.`
        : "No proposals are pending.",
    ].join("\n");
    return {
      structured: b,
      text,
      extra: links.map((m) => ({
        type: "resource_link",
        uri: memoryUri(m.id),
        name: m.body.split("\n", 1)[0]?.trim().slice(0, 80) || m.id,
        mimeType: "text/markdown",
      })),
    };
  },
});

const D = ZDebriefInput.shape;

export const debrief = defineTool({
  name: "debrief",
  title: "Debrief",
  description:
    "Wrap up when you are done or about to stop: at the end of a session or task, record in one call what you did (a summary of the outcome), what you learned (lessons, mistakes to avoid) and what you decided, each as its own memory for whoever comes next.",
  inputSchema: z.object({
    summary: D.summary.describe("What the session did and how it ended, in Markdown."),
    learned: D.learned.describe("Lessons learned, one memory each; at most 20."),
    decisions: D.decisions.describe("Decisions made, one memory each; at most 20."),
    thread: D.thread.describe("A thread (by name) to file them all in; created if missing."),
    tags: D.tags.describe("Tags for every memory it records."),
    scope: scopeArg,
  }),
  outputSchema: z.object({
    scope: z.string(),
    summaryId: z.string(),
    learnedIds: z.array(z.string()),
    decisionIds: z.array(z.string()),
    thread: z.string().nullable(),
    quarantined: ZHeld,
  }),
  annotations: WRITES,
  errors: ["INVALID_ARGUMENTS", "SCOPE_ACCESS_DENIED", "MEMORY_TOO_LARGE"],
  async handler(input, { actor }) {
    const scope = await resolveScope(actor, input.scope, "write");
    const { scope: _s, ...rest } = input;
    const done = await recordDebrief(actor, { ...rest, scopeId: scope.id });
    const count = 1 + done.learnedIds.length + done.decisionIds.length;
    return {
      structured: done,
      text: `Debrief recorded in scope "${done.scope}": ${count} memories (summary ${done.summaryId}, ${done.learnedIds.length} learned, ${done.decisionIds.length} decisions).${done.quarantined ? ` Held for review: ${HELD}${done.thread ? ` They join thread ${done.thread} once admitted.` : ""}` : ""}`,
    };
  },
});

const H = ZHandoffFields.shape;

export const handoff = defineTool({
  name: "handoff",
  title: "Hand off",
  description:
    "Hand unfinished or open work over to another agent or a successor: leave a note addressed to an Agent Identity (toIdentity), or to whoever picks up a thread next (toThread), saying what is done, what is left and what you tried. The addressee sees it first thing when it next starts, once.",
  inputSchema: z.object({
    body: H.body.describe("The note, in Markdown: what is done, next steps, pointers."),
    toIdentity: H.toIdentity.describe("The Agent Identity (by name) to hand over to. Give this or toThread."),
    toThread: H.toThread.describe("The thread (by name) to hand over to; created if missing. Give this or toIdentity."),
    tags: H.tags.describe("Tags for the note."),
    scope: scopeArg,
  }),
  outputSchema: z.object({
    id: z.string(),
    scope: z.string(),
    to: z.object({ identity: z.string().optional(), thread: z.string().optional() }),
    occurredAt: ZTime,
    quarantined: ZHeld,
  }),
  annotations: WRITES,
  errors: ["INVALID_ARGUMENTS", "SCOPE_ACCESS_DENIED", "MEMORY_TOO_LARGE"],
  async handler(input, { actor }) {
    const scope = await resolveScope(actor, input.scope, "write");
    const { scope: _s, ...rest } = input;
    const made = await createHandoff(actor, { ...rest, scopeId: scope.id });
    const to = made.to.identity ? `Agent Identity "${made.to.identity}"` : `thread "${made.to.thread}"`;
    return {
      structured: { ...made, occurredAt: made.occurredAt.toISOString() },
      text: made.quarantined
        ? `Handoff ${made.id} left for ${to} in scope "${made.scope}", held for review. ${HELD} Its addressee's next briefing after that returns it.`
        : `Handoff ${made.id} left for ${to} in scope "${made.scope}"; its next briefing returns it.`,
    };
  },
});

export const configureScope = defineTool({
  name: "configure_scope",
  title: "Switch working scope",
  description:
    "Switch or change the memory scope you work in: the default for this token from now on, kept across your later calls, so you do not repeat it on each one. With no scope given, says which one you are in and the ones you may move to.",
  inputSchema: z.object({
    scope: ZScopeName.optional().describe(
      "The scope to work in, by name; omit to see the current one and the choices.",
    ),
  }),
  outputSchema: z.object({
    scope: z.string().nullable(),
    access: z.enum(["read", "write"]).nullable(),
    previous: z.string().nullable(),
    granted: z.array(z.object({ name: z.string(), access: z.enum(["read", "write"]) })),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  errors: ["INVALID_ARGUMENTS", "SCOPE_ACCESS_DENIED"],
  async handler(input, { actor }) {
    const state = input.scope ? await setWorkingScope(actor, input.scope) : await describeWorkingScope(actor);
    const choices = state.granted.map((g) => `${g.name} (${g.access})`).join(", ") || "none";
    const text = input.scope
      ? `Working scope is now "${state.scope}" (${state.access}).`
      : `Working scope: ${state.scope ? `"${state.scope}" (${state.access})` : "not set"}. Granted scopes: ${choices}.`;
    return { structured: state, text };
  },
});

// resolveScope is re-exported for prompts and resources that follow the same rule.
export { resolveScope };
