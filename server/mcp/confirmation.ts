/**
 * `confirm` at /mcp (docs/decisions/0075): the SDK's multi-round-trip pieces for 2026-07-28
 * clients — an `InputRequiredResult` whose form elicitation shows the Tool, its Source and
 * its arguments, and a `requestState` sealed by the SDK's HMAC codec (key derived from the
 * installation secret, so every instance verifies it; bound to the Agent Identity; expiring)
 * which the SDK verifies before the handler runs. What the claim must fit and its single use
 * are the domain's (domain/call-policies/confirmation.ts).
 */
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { Actor } from "../actor";
import { purposeKey } from "../crypto";
import type { ClientConfirmation, ConfirmationClaim, ConfirmationRequest } from "../domain/call-policies/confirmation";
import { LIMITS } from "../limits";
import { SERVED_REVISIONS } from "./revisions";

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

/** What this request's client can do about a confirmation, and what it brought back. */
export function clientConfirmation(ctx: ServerContext, revision: string): ClientConfirmation {
  if (revision !== SERVED_REVISIONS[0])
    return {
      canAsk: false,
      unavailableBecause: `it speaks MCP ${revision}, and /mcp keeps no session on which to ask it`,
    };
  const capabilities = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
    | { elicitation?: { form?: unknown; url?: unknown } }
    | undefined;
  const elicitation = capabilities?.elicitation;
  // An empty elicitation capability means form mode (the 2025-06-18 shape).
  const form = !!elicitation && (elicitation.form !== undefined || elicitation.url === undefined);
  const claim = ctx.mcpReq.requestState<ConfirmationClaim>();
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

/** The question, as the InputRequiredResult the client fulfils and retries. */
export async function askToConfirm(request: ConfirmationRequest, ctx: ServerContext): Promise<InputRequiredResult> {
  return inputRequired({
    inputRequests: {
      [INPUT_KEY]: inputRequired.elicit({
        message: request.message,
        requestedSchema: {
          type: "object",
          properties: {
            [INPUT_KEY]: { type: "boolean", title: "Run this call", default: false },
          },
          required: [INPUT_KEY],
        },
      }),
    },
    requestState: await confirmationCodec().mint(request.claim, ctx),
  });
}

export type ToolsCallAnswer = CallToolResult | InputRequiredResult;
