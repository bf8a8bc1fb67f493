/**
 * `confirm`: a call runs only after the agent's user said yes in their client. The question
 * goes out with a claim — the Tool's model-facing name, its definition digest, the
 * arguments' digest, a nonce and an expiry — that the transport seals (HMAC with a key
 * derived from the installation secret, bound to the Agent Identity) into the 2026-07-28
 * `requestState` the client hands back untouched. The retry runs only if its claim fits
 * this very call and its nonce was never used: the nonce is recorded before the Source is
 * reached, so a replay, on any instance, finds it (docs/decisions/0075).
 */
import { randomUUID } from "node:crypto";
import { fmt } from "@/universal/format";
import { getDb } from "../../db";
import { DomainError } from "../../errors";
import { LIMITS } from "../../limits";
import { canonicalJson, sha256 } from "../catalog/canonical";
import { redactArguments } from "./redact";

export interface ConfirmationClaim {
  nonce: string;
  tool: string;
  definition: string;
  args: string;
  /** Unix seconds. */
  exp: number;
}

/** What the client brought back on a retry, already verified by the transport's seal. */
export interface ConfirmationAnswer {
  claim: ConfirmationClaim;
  accepted: boolean;
  /** Why there was no yes when the user gave no answer at all (asked on a 2025-era stream). */
  why?: string;
}

/** How the transport can reach the agent's user for this one call. */
export interface ClientConfirmation {
  /** A client that declared form elicitation (2026-07-28, or 2025-era on its call's stream): it can be asked. */
  canAsk: boolean;
  answer?: ConfirmationAnswer;
  /** Why it cannot be asked, for CONFIRMATION_UNAVAILABLE. */
  unavailableBecause?: string;
  /**
   * Tried from the console (agent-tools/try-tool.ts): the operator is the person who
   * confirms, there and then, so no question goes anywhere.
   */
  console?: { confirmed: boolean };
}

/** The question to put to the user, with the claim to seal into requestState. */
export interface ConfirmationRequest {
  claim: ConfirmationClaim;
  message: string;
}

export interface CallUnderConfirmation {
  toolName: string;
  title: string | null;
  definitionHash: string;
  sourceName: string;
  identityName: string;
  arguments: Record<string, unknown>;
}

export const argumentsDigest = (args: Record<string, unknown>) => sha256(canonicalJson(args));

/** Longest rendering of the arguments in the question; the user sees that it was cut. */
const SHOWN_ARGUMENT_CHARS = 2000;

export function confirmationRequest(call: CallUnderConfirmation, now = Date.now()): ConfirmationRequest {
  // Values under secret-looking names are shown as approvers see them: the question passes
  // through the agent's client, which may log it.
  const args = JSON.stringify(redactArguments(call.arguments), null, 2);
  const shown =
    args.length > SHOWN_ARGUMENT_CHARS
      ? `${args.slice(0, SHOWN_ARGUMENT_CHARS)}\n… (${fmt(args.length - SHOWN_ARGUMENT_CHARS)} more characters)`
      : args;
  const label = call.title && call.title !== call.toolName ? `${call.title} (${call.toolName})` : call.toolName;
  return {
    claim: {
      nonce: randomUUID(),
      tool: call.toolName,
      definition: call.definitionHash,
      args: argumentsDigest(call.arguments),
      exp: Math.floor(now / 1000) + LIMITS.CONFIRMATION_TTL_SECONDS.value,
    },
    message: `Agent "${call.identityName}" wants to call the Tool ${label} of the Source "${call.sourceName}" with these arguments:\n${shown}\nAllow this one call?`,
  };
}

/**
 * The verdict on a call under `confirm`: ask (no answer yet), run (an accepted answer that
 * fits, now used up), or a failure the model can act on; nothing reaches the Source unless
 * this returns "run".
 */
export async function judgeConfirmation(
  call: CallUnderConfirmation,
  client: ClientConfirmation | undefined,
  now = Date.now(),
): Promise<
  { verdict: "run" } | { verdict: "ask"; request: ConfirmationRequest } | { verdict: "refuse"; error: DomainError }
> {
  if (client?.console)
    return client.console.confirmed
      ? { verdict: "run" }
      : {
          verdict: "refuse",
          error: new DomainError(
            "CONFIRMATION_UNAVAILABLE",
            `The Tool ${call.toolName} runs only after the user confirms each call. Tried from the console, you are that person: confirm the call (confirmed: true) to run it. Nothing was run.`,
            { policy: "confirm" },
          ),
        };
  const answer = client?.answer;
  if (!answer) {
    if (client?.canAsk) return { verdict: "ask", request: confirmationRequest(call, now) };
    return {
      verdict: "refuse",
      error: new DomainError(
        "CONFIRMATION_UNAVAILABLE",
        `The Tool ${call.toolName} runs only after the user confirms each call, and this client cannot ask its user${client?.unavailableBecause ? ` (${client.unavailableBecause})` : ""}. Nothing was run. Use a client that supports form elicitation (MCP 2026-07-28, or 2025-06-18 and later declaring it when it connects), or ask an operator to change the Tool's call policy (Tools → the Tool → Call policy).`,
        { policy: "confirm" },
      ),
    };
  }
  const { claim } = answer;
  const fits =
    claim.tool === call.toolName &&
    claim.definition === call.definitionHash &&
    claim.args === argumentsDigest(call.arguments);
  if (!fits)
    return {
      verdict: "refuse",
      error: new DomainError(
        "CONFIRMATION_INVALID",
        claim.tool !== call.toolName
          ? "The confirmation carried back was given for another Tool. Nothing was run; call again to be asked anew."
          : claim.definition !== call.definitionHash
            ? "The Tool's definition changed since the user confirmed. Nothing was run; call again to be asked anew."
            : "The confirmation carried back was given for other arguments. Nothing was run; call again with the arguments the user confirmed, or be asked anew.",
      ),
    };
  // A no is a no, expired or not.
  if (!answer.accepted)
    return {
      verdict: "refuse",
      error: new DomainError(
        "CONFIRMATION_DECLINED",
        `${answer.why ?? "The user declined the call."} Nothing was run; do not retry ${call.toolName} unless the user asks.`,
      ),
    };
  if (claim.exp * 1000 <= now) return { verdict: "refuse", error: expired() };
  if (!(await spendNonce(claim))) return { verdict: "refuse", error: used() };
  return { verdict: "run" };
}

const expired = () =>
  new DomainError("CONFIRMATION_INVALID", "The confirmation expired. Nothing was run; call again to be asked anew.");
const used = () =>
  new DomainError(
    "CONFIRMATION_INVALID",
    "That confirmation was used already: each one allows a single call. Nothing was run; call again to be asked anew.",
  );

/** Records the nonce; false when it was recorded before (a replay). */
async function spendNonce(claim: ConfirmationClaim): Promise<boolean> {
  const db = await getDb();
  const inserted = await db.$executeRaw`
    INSERT INTO confirmation_use (nonce, "expiresAt") VALUES (${claim.nonce}, ${new Date(claim.exp * 1000)})
    ON CONFLICT (nonce) DO NOTHING`;
  return inserted === 1;
}

/** Drops used nonces past their expiry (a replay of those is refused by the expiry itself). */
export async function sweepConfirmationUses(now = new Date()): Promise<number> {
  const db = await getDb();
  const { count } = await db.confirmationUse.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}
