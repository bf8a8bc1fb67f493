/**
 * Questions put to a 2025-era client on the response stream of its own tools/call (the
 * confirmation of a Tool under `confirm`, docs/decisions/0087). The client answers with a
 * POST of its own, which a load balancer may send to any instance; the call waiting for it
 * may be on another. So the answer meets the question here, in the database every instance
 * shares: the waiting call opens the question before it is sent, the answer is written to
 * it only by the same Agent Identity and only once, and the waiting call takes it.
 * Nothing of the client's session is kept: a row lives only while its question is open.
 */
import { getDb } from "../../db";
import { signalWakeup } from "../agent-tools/wakeup-listener";

/** What the waiting call watches (wakeups.ts): its answer came, on this instance or another. */
export const answeredKey = (id: string) => `question:${id}`;

/** Opened before the question is sent, so an answer can never arrive before its row. */
export async function openQuestion(id: string, identityId: string, expiresAt: Date): Promise<void> {
  const db = await getDb();
  await db.clientQuestion.create({ data: { id, identityId, expiresAt } });
}

/**
 * The client's answer (a JSON-RPC response, as text) to an open question of this identity.
 * False when no such question is open: answered already, expired, closed, asked of another
 * identity, or never asked.
 */
export async function answerQuestion(identityId: string, id: string, answer: string, now = new Date()) {
  const db = await getDb();
  const { count } = await db.clientQuestion.updateMany({
    where: { id, identityId, answer: null, expiresAt: { gt: now } },
    data: { answer, answeredAt: now },
  });
  if (count === 1) await signalWakeup(answeredKey(id));
  return count === 1;
}

/** The answer once it came (the row goes with it), or null while the question is open. */
export async function takeAnswer(id: string): Promise<string | null> {
  const db = await getDb();
  const row = await db.clientQuestion.findUnique({ where: { id }, select: { answer: true } });
  if (row?.answer == null) return null;
  await db.clientQuestion.deleteMany({ where: { id } });
  return row.answer;
}

/** The waiting call gave up (timed out, or the agent hung up): a late answer finds nothing. */
export async function closeQuestion(id: string): Promise<void> {
  const db = await getDb();
  await db.clientQuestion.deleteMany({ where: { id } });
}

/** Questions whose call died with its instance, past their expiry. */
export async function sweepClientQuestions(now = new Date()): Promise<number> {
  const db = await getDb();
  const { count } = await db.clientQuestion.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}
