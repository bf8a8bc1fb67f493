/**
 * Asking a 2025-era client on the response stream of its own tools/call (docs/decisions/0087).
 * /mcp keeps no session, so two things a sessionful server would remember are carried
 * instead:
 * - what the client declared at `initialize`: when it declared form elicitation, the
 *   answer to its `initialize` carries an `Mcp-Session-Id` that says so, sealed (HMAC, key
 *   derived from the installation secret) and bound to the Agent Identity. Every later
 *   request sends it back; any instance reads it. Nothing is stored.
 * - the question's way home: the server→client request goes out on the call's own event
 *   stream under an id of our own, the client posts its answer as a request of its own to
 *   any instance, and the answer meets the waiting call through the database
 *   (domain/call-policies/client-questions.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { JSONRPCMessage, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { purposeKey } from "../crypto";
import { listenForWakeups } from "../domain/agent-tools/wakeup-listener";
import { watch } from "../domain/agent-tools/wakeups";
import {
  answeredKey,
  answerQuestion,
  closeQuestion,
  openQuestion,
  takeAnswer,
} from "../domain/call-policies/client-questions";
import { DomainError } from "../errors";
import { LIMITS } from "../limits";
import { log } from "../log";
import { jsonRpcErrorResponse } from "./errors";
import { revisionHas } from "./revisions";

const SESSION_PREFIX = "qms1";
const QUESTION_PREFIX = "qmq_";
/**
 * An answer wakes its waiting call at once (in-process, or by NOTIFY from another instance);
 * this reading of the database is only what a lost wake-up costs.
 */
const ANSWER_POLL_MS = 1_000;

/** Form elicitation arrived in 2025-06-18; an empty `elicitation: {}` means form (its shape then). */
function declaresFormElicitation(capabilities: unknown): boolean {
  const elicitation = (capabilities as { elicitation?: { form?: unknown; url?: unknown } } | undefined)?.elicitation;
  if (!elicitation || typeof elicitation !== "object") return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

const mac = (identityId: string, body: string) =>
  createHmac("sha256", purposeKey("mcp-session/v1")).update(`${identityId}\0${body}`).digest("base64url");

/**
 * The `Mcp-Session-Id` for the answer to an initialize, or null when there is nothing to
 * remember (the client cannot be asked, so it gets no session id, as before).
 */
export function sessionIdFor(identityId: string, revision: string, initialize: unknown): string | null {
  if (!revisionHas(revision, "2025-06-18")) return null;
  const capabilities = (initialize as { params?: { capabilities?: unknown } } | undefined)?.params?.capabilities;
  if (!declaresFormElicitation(capabilities)) return null;
  const body = Buffer.from(JSON.stringify({ f: 1 })).toString("base64url");
  return `${SESSION_PREFIX}.${body}.${mac(identityId, body)}`;
}

/**
 * Whether the session id this request carries says its client declared form elicitation.
 * One that does not verify (another identity's, a rotated secret, not ours) says nothing:
 * the request is served as any stateless one.
 */
export function sessionAsksByForm(request: Request, identityId: string): boolean {
  const sessionId = request.headers.get("mcp-session-id");
  const [prefix, body, seal] = sessionId?.split(".") ?? [];
  if (prefix !== SESSION_PREFIX || !body || !seal) return false;
  const expected = Buffer.from(mac(identityId, body));
  const given = Buffer.from(seal);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  try {
    return (JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { f?: unknown }).f === 1;
  } catch {
    return false;
  }
}

type Message = Record<string, unknown>;
const isRequest = (m: Message) => typeof m.method === "string" && m.id !== undefined;

/**
 * Carries this request's server→client requests home: each goes out under a question id
 * of our own (the per-request server numbers its requests from 0, as every other does), and
 * its answer, from whichever instance received it, is handed back to the server under the
 * number it used. A cancellation the server sends for it (its timeout) closes the question.
 */
export function carryQuestions(
  transport: WebStandardStreamableHTTPServerTransport,
  identityId: string,
  signal: AbortSignal,
): void {
  const send = transport.send.bind(transport);
  const asked = new Map<unknown, string>();
  const wait = async (question: string, id: unknown) => {
    // Watched before the first read, so an answer that lands during it still ends the pause.
    const answered = watch(answeredKey(question));
    try {
      await listenForWakeups();
      while (!signal.aborted && asked.get(id) === question) {
        const answer = await takeAnswer(question);
        if (answer !== null) {
          asked.delete(id);
          transport.onmessage?.({ ...(JSON.parse(answer) as Message), id } as JSONRPCMessage);
          return;
        }
        await answered.pause(ANSWER_POLL_MS, signal);
      }
    } catch (error) {
      log.warn({ err: error }, "could not read the answer to a question put to an agent's client");
    } finally {
      answered.close();
    }
    asked.delete(id);
    await closeQuestion(question).catch(() => {});
  };
  transport.send = async (message, options) => {
    const m = message as Message;
    if (isRequest(m)) {
      const question = `${QUESTION_PREFIX}${randomBytes(18).toString("base64url")}`;
      await openQuestion(question, identityId, new Date(Date.now() + LIMITS.CONFIRMATION_TTL_SECONDS.value * 1000));
      asked.set(m.id, question);
      void wait(question, m.id);
      return send({ ...m, id: question } as JSONRPCMessage, options);
    }
    const params = m.params as { requestId?: unknown } | undefined;
    if (m.method === "notifications/cancelled" && params && asked.has(params.requestId)) {
      const question = asked.get(params.requestId) as string;
      asked.delete(params.requestId);
      return send({ ...m, params: { ...params, requestId: question } } as unknown as JSONRPCMessage, options);
    }
    return send(message, options);
  };
}

/** The answers in a POST, when all it holds are answers to our questions; otherwise null. */
export function answersIn(parsedBody: unknown): Message[] | null {
  const messages = (Array.isArray(parsedBody) ? parsedBody : [parsedBody]) as unknown[];
  const answers = messages.filter(
    (m): m is Message =>
      !!m &&
      typeof m === "object" &&
      (m as Message).method === undefined &&
      typeof (m as Message).id === "string" &&
      ((m as Message).id as string).startsWith(QUESTION_PREFIX) &&
      ("result" in (m as Message) || "error" in (m as Message)),
  );
  return answers.length && answers.length === messages.length ? answers : null;
}

/** Hands each answer to its waiting call: 202, or 404 when a question was not open for this identity. */
export async function acceptAnswers(identityId: string, answers: Message[]): Promise<Response> {
  let missed = 0;
  for (const answer of answers) {
    const { id, ...rest } = answer;
    if (!(await answerQuestion(identityId, id as string, JSON.stringify(rest)))) missed++;
  }
  if (!missed) return new Response(null, { status: 202 });
  return jsonRpcErrorResponse(
    new DomainError(
      "NOT_FOUND",
      "No question of this Agent Identity waits for this answer: it was answered already, it expired or its call ended, or it was asked of another identity.",
    ),
  );
}
