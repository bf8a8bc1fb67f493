/**
 * `confirm` at /mcp (docs/decisions/0075, 0087): the SDK's multi-round-trip pieces for 2026-07-28
 * clients — an `InputRequiredResult` whose form elicitation shows the Tool, its Source and
 * its arguments, and a `requestState` sealed by the SDK's HMAC codec (key derived from the
 * installation secret, so every instance verifies it; bound to the Agent Identity; expiring),
 * verified here inside the observed call so a refusal is in the call log. For 2025-era
 * clients that declared form elicitation, the same question on the call's own stream
 * (in-band.ts carries it home). What the claim must fit and its single use are the
 * domain's (domain/call-policies/confirmation.ts).
 */
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  SdkError,
  SdkErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { Actor } from "../actor";
import { purposeKey } from "../crypto";
import type { ClientConfirmation, ConfirmationClaim, ConfirmationRequest } from "../domain/call-policies/confirmation";
import { DomainError, isDomainError } from "../errors";
import { LIMITS } from "../limits";
import { revisionHas, SERVED_REVISIONS } from "./revisions";

const INPUT_KEY = "confirm";

let cached: { ttl: number; codec: RequestStateCodec<ConfirmationClaim> } | undefined;

/** The codec, made once per TTL setting (tests change it). */
export function confirmationCodec(): RequestStateCodec<ConfirmationClaim> {
  const ttl = LIMITS.CONFIRMATION_TTL_SECONDS.value;
  if (cached?.ttl !== ttl)
    cached = {
      ttl,
      codec: createRequestStateCodec<ConfirmationClaim>({
        key: purposeKey("mcp-request-state/v1"),
        ttlSeconds: ttl,
        // Bound to the Agent Identity: another identity's token cannot carry it back.
        bind: (ctx) => identityOf(ctx) ?? "",
      }),
    };
  return cached.codec;
}

function identityOf(ctx: ServerContext): string | undefined {
  const actor = ctx.http?.authInfo?.extra?.actor as Actor | undefined;
  return actor?.kind === "agent" ? actor.identityId : undefined;
}

/**
 * What this request's client can do about a confirmation, and what it brought back. A
 * requestState is verified here (seal, Agent Identity, expiry), inside the observed call,
 * so a refused one is in the call log under the Tool's name; refusedRequestState turns the
 * refusal into the SDK's frozen protocol error.
 */
export async function clientConfirmation(
  ctx: ServerContext,
  revision: string,
  asksInBand: boolean,
): Promise<ClientConfirmation> {
  if (revision !== SERVED_REVISIONS[0]) {
    if (asksInBand) return { canAsk: true };
    return {
      canAsk: false,
      unavailableBecause: revisionHas(revision, "2025-06-18")
        ? `it speaks MCP ${revision} and declared no form elicitation when it connected (initialize)`
        : `it speaks MCP ${revision}, which has no elicitation`,
    };
  }
  const capabilities = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
    | { elicitation?: { form?: unknown; url?: unknown } }
    | undefined;
  const elicitation = capabilities?.elicitation;
  // An empty elicitation capability means form mode (the 2025-06-18 shape).
  const form = !!elicitation && (elicitation.form !== undefined || elicitation.url === undefined);
  const raw = ctx.mcpReq.requestState<unknown>();
  let claim: ConfirmationClaim | undefined;
  if (typeof raw === "string") {
    try {
      claim = await confirmationCodec().verify(raw, ctx);
    } catch (error) {
      const why = (error as Error).message;
      throw new DomainError(
        "CONFIRMATION_INVALID",
        `The requestState carried back was refused (${STATE_REFUSALS[why] ?? "it does not verify"}). Nothing was run; call again to be asked anew.`,
        { requestState: why },
      );
    }
  }
  const view = inputResponse(ctx.mcpReq.inputResponses, INPUT_KEY);
  const answer =
    claim && typeof claim === "object" && view.kind === "elicit"
      ? { claim, accepted: view.action === "accept" && view.content?.[INPUT_KEY] === true }
      : undefined;
  return {
    canAsk: form,
    answer,
    ...(form ? {} : { unavailableBecause: "it declared no form elicitation capability" }),
  };
}

/** Why the SDK's codec refused a state (its error messages), in the call log's words. */
const STATE_REFUSALS: Record<string, string> = {
  malformed: "it is not a requestState Quartermaster minted",
  mac: "its seal does not match: it was changed",
  expired: "it expired",
  bind: "it was minted for another Agent Identity",
};

/**
 * A refused requestState answers as every 2026-07-28 SDK server does, the frozen -32602
 * "Invalid or expired requestState", which clients recognise (docs/decisions/0075).
 */
export function refusedRequestState(error: unknown): ProtocolError | undefined {
  if (!isDomainError(error) || error.code !== "CONFIRMATION_INVALID") return undefined;
  if (!(error.details as { requestState?: unknown } | undefined)?.requestState) return undefined;
  return new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid or expired requestState", {
    reason: "invalid_request_state",
  });
}

/**
 * The question put to a 2025-era client on this tools/call's own stream (elicitation/create,
 * form mode), waited for until the confirmation would expire. Its answer, or why there is
 * none, for the call to be judged again.
 */
export async function askInBand(
  request: ConfirmationRequest,
  ctx: ServerContext,
  revision: string,
): Promise<ClientConfirmation> {
  const timeout = Math.max(1, request.claim.exp * 1000 - Date.now());
  try {
    const result = await ctx.mcpReq.send(
      {
        method: "elicitation/create",
        params: {
          // `mode` arrived in 2025-11-25; a 2025-06-18 client knows only the form.
          ...(revisionHas(revision, "2025-11-25") ? { mode: "form" } : {}),
          message: request.message,
          requestedSchema: REQUESTED_SCHEMA,
        },
      },
      { timeout, signal: ctx.mcpReq.signal },
    );
    const accepted = result.action === "accept" && (result.content as Record<string, unknown>)?.[INPUT_KEY] === true;
    return { canAsk: false, answer: { claim: request.claim, accepted } };
  } catch (error) {
    // The agent hung up: nothing is left to answer.
    if (ctx.mcpReq.signal.aborted) throw error;
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
      return {
        canAsk: false,
        answer: {
          claim: request.claim,
          accepted: false,
          why: `The user did not answer within ${fmtDuration(LIMITS.CONFIRMATION_TTL_SECONDS.value * 1000)}.`,
        },
      };
    return {
      canAsk: false,
      unavailableBecause: `it answered the question with an error: ${(error as Error).message.slice(0, 200)}`,
    };
  }
}

const fmtDuration = (ms: number) =>
  ms >= 60_000
    ? `${Math.round(ms / 60_000)} minute${Math.round(ms / 60_000) === 1 ? "" : "s"}`
    : `${Math.round(ms / 1000)} s`;

const REQUESTED_SCHEMA = {
  type: "object" as const,
  properties: {
    [INPUT_KEY]: { type: "boolean" as const, title: "Run this call", default: false },
  },
  required: [INPUT_KEY],
};

/** The question, as the InputRequiredResult the client fulfils and retries. */
export async function askToConfirm(request: ConfirmationRequest, ctx: ServerContext): Promise<InputRequiredResult> {
  return inputRequired({
    inputRequests: {
      [INPUT_KEY]: inputRequired.elicit({
        message: request.message,
        requestedSchema: REQUESTED_SCHEMA,
      }),
    },
    requestState: await confirmationCodec().mint(request.claim, ctx),
  });
}

export type ToolsCallAnswer = CallToolResult | InputRequiredResult;
