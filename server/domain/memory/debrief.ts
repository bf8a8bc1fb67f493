/**
 * debrief: what a session did and learned, recorded in one call and one transaction — a
 * "debrief" memory for the summary, a note per thing learned, a decision per decision —
 * so an agent ending its work leaves the next one something to find, and a failure leaves
 * nothing half-written.
 */
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { parseInput } from "../validation";
import { requireScope } from "./access";
import { checkBodySize, type WrittenMemory, writeMemory } from "./memories";
import { ZDebriefInput } from "./schemas";

export async function recordDebrief(actor: Actor, raw: unknown) {
  const input = parseInput(ZDebriefInput, raw);
  for (const body of [input.summary, ...input.learned, ...input.decisions]) checkBodySize(body);
  const scope = await requireScope(actor, input.scopeId, "write");
  const db = await getDb();
  const threads = input.thread ? [input.thread] : [];
  const base = { scopeId: scope.id, tags: input.tags, threads };
  return db.$transaction(async (tx) => {
    const write = (body: string, kind: "debrief" | "note" | "decision") =>
      writeMemory(tx, actor, scope.id, { ...base, body, kind });
    const summary = await write(input.summary, "debrief");
    const learned: WrittenMemory[] = [];
    for (const body of input.learned) learned.push(await write(body, "note"));
    const decisions: WrittenMemory[] = [];
    for (const body of input.decisions) decisions.push(await write(body, "decision"));
    return {
      scope: scope.name,
      summaryId: summary.id,
      learnedIds: learned.map((m) => m.id),
      decisionIds: decisions.map((m) => m.id),
      thread: input.thread ?? null,
      quarantined: summary.quarantined,
    };
  });
}
