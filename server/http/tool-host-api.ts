/**
 * The SDK Tool Host HTTP API (v1): JSON in, JSON out, errors as problems (problem.ts).
 * Authenticated with the host token: Authorization: Bearer qm_host_….
 */

import { randomUUID } from "node:crypto";
import { HOST_RESULT_CODES } from "@/sdk/src/contract/argument-problems";
import { RESULT_CONTENT_TYPES } from "@/sdk/src/contract/result-checks";
import { fmtBytes } from "@/universal/format";
import { collectHostCalls, submitHostResults, watchCancellations } from "../domain/agent-tools/host-calls";
import { reportHostProgress } from "../domain/agent-tools/host-progress";
import {
  authenticateToolHost,
  heartbeat,
  hostProcessId,
  registerTools,
  sayGoodbye,
  type ToolHost,
} from "../domain/sources/tool-hosts";
import { DomainError } from "../errors";
import { LIMITS } from "../limits";
import { log } from "../log";
import { bearerToken } from "../tokens";
import { bodyTooLarge } from "./body-limits";
import { problem, problemOf } from "./problem";

async function hostFrom(req: Request): Promise<ToolHost | Response> {
  const token = bearerToken(req.headers.get("authorization"));
  if (!token)
    return problem("UNAUTHENTICATED", "Send the SDK Tool Host's token as Authorization: Bearer <host token>.");
  const host = await authenticateToolHost(token, hostProcessId(req.headers.get("qm-host-process")));
  return (
    host ??
    problem(
      "UNAUTHENTICATED",
      "The host token sent is not valid: it is mistyped, was rotated, or its SDK Tool Host was deleted. Use the token the Source's page showed when it was created or last rotated.",
    )
  );
}

/** Reads at most `limit` bytes; a larger body is refused without reading the rest. */
async function readJsonBody(req: Request, limit: number, what: string): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? "");
  const tooLarge = (measured: number | string) => bodyTooLarge(what, limit, measured);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(declared);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge(`more than ${fmtBytes(limit)}`);
      }
      chunks.push(value);
    }
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new DomainError("CATALOG_MALFORMED_RESPONSE", "The request body is not valid JSON.");
  }
}

/** Whatever breaks, the host gets JSON it can log, never an HTML error page. */
function jsonErrors(what: string, handler: (req: Request, host: ToolHost) => Promise<Response>) {
  return async (req: Request): Promise<Response> => {
    let host: ToolHost | Response | undefined;
    try {
      host = await hostFrom(req);
      if (host instanceof Response) return host;
      return await handler(req, host);
    } catch (e) {
      const refusal = problemOf(e);
      if (refusal) return refusal;
      // The front's id, so this line and the request's own log line can be matched.
      const requestId = req.headers.get("x-request-id") ?? randomUUID();
      const sourceId = host && !(host instanceof Response) ? host.id : undefined;
      log.error({ err: e, requestId, sourceId }, `tool host ${what} failed`);
      return problem("INTERNAL", `Internal error (request ${requestId}).`);
    }
  };
}

export const handleRegistration = jsonErrors("registration", async (req, host) => {
  const body = await readJsonBody(req, LIMITS.SDK_REGISTRATION_BODY_BYTES.value, "a registration");
  const result = await registerTools(host, body);
  return Response.json({
    status: "registered",
    sourceId: host.id,
    heartbeatTimeoutSeconds: host.heartbeatTimeoutSeconds,
    tools: result.toolCount,
    added: result.added,
    removed: result.removed,
    changed: result.changed,
    incompatible: result.incompatible,
    // Tells a host it may send these codes with a failed result (an older server refuses the field).
    resultCodes: HOST_RESULT_CODES,
    // …and that a result may be MCP content blocks of these types, rather than one output text.
    resultContent: RESULT_CONTENT_TYPES,
    // …and that it may report calls' progress (calls/progress), within these limits.
    progress: {
      messageChars: LIMITS.TOOL_PROGRESS_MESSAGE_CHARS.value,
      intervalMs: LIMITS.TOOL_PROGRESS_INTERVAL_MS.value,
      reportsPerRequest: LIMITS.TOOL_HOST_PROGRESS_REPORTS.value,
    },
  });
});

export const handleHeartbeat = jsonErrors("heartbeat", async (_req, host) => {
  const { silentAfter } = await heartbeat(host);
  return Response.json({
    status: "ok",
    silentAfter: silentAfter.toISOString(),
    heartbeatTimeoutSeconds: host.heartbeatTimeoutSeconds,
  });
});

/** The `wait` of a long poll, in seconds: by default, and at most, under common 30 s proxy timeouts. */
function waitSeconds(params: URLSearchParams, what: string): number | Response {
  const maxWait = LIMITS.TOOL_HOST_COLLECT_WAIT_SECONDS.value;
  const given = params.get("wait");
  const wait = given === null ? maxWait : Number(given);
  if (!Number.isFinite(wait) || wait < 0 || wait > maxWait)
    return problem("INVALID_INPUT", `wait: seconds to wait for ${what}, from 0 to ${maxWait}.`, { field: "wait" });
  return wait;
}

export const handleCollectCalls = jsonErrors("call collection", async (req, host) => {
  const params = new URL(req.url).searchParams;
  const wait = waitSeconds(params, "a call");
  if (wait instanceof Response) return wait;
  // A host with fewer free workers than a full batch takes only what it can start now,
  // leaving the rest to other processes collecting with the same token.
  const maxCalls = LIMITS.TOOL_HOST_COLLECT_CALLS.value;
  const givenMax = params.get("max");
  const max = givenMax === null ? maxCalls : Number(givenMax);
  if (!Number.isInteger(max) || max < 1 || max > maxCalls)
    return problem("INVALID_INPUT", `max: most calls to hand over at once, from 1 to ${maxCalls}.`, {
      field: "max",
    });
  const calls = await collectHostCalls(host, wait * 1000, req.signal, max);
  return Response.json({ calls });
});

export const handleCancellations = jsonErrors("cancellation watch", async (req, host) => {
  const wait = waitSeconds(new URL(req.url).searchParams, "a cancellation");
  if (wait instanceof Response) return wait;
  const body = await readJsonBody(req, LIMITS.TOOL_HOST_REQUEST_BODY_BYTES.value, "a cancellation watch");
  return Response.json({ cancelled: await watchCancellations(host, body, wait * 1000, req.signal) });
});

export const handleProgress = jsonErrors("progress report", async (req, host) => {
  const body = await readJsonBody(req, LIMITS.TOOL_HOST_REQUEST_BODY_BYTES.value, "a progress report");
  return Response.json(await reportHostProgress(host, body));
});

export const handleGoodbye = jsonErrors("goodbye", async (_req, host) => Response.json(await sayGoodbye(host)));

export const handleCallResults = jsonErrors("result submission", async (req, host) => {
  const body = await readJsonBody(req, LIMITS.SDK_RESULT_SUBMISSION_BYTES.value, "a result submission");
  return Response.json(await submitHostResults(host, body));
});

const ENDPOINTS =
  "POST /api/v1/tool-hosts/registration (or PUT), POST /api/v1/tool-hosts/heartbeat, POST /api/v1/tool-hosts/calls/next, POST /api/v1/tool-hosts/calls/results, POST /api/v1/tool-hosts/calls/cancelled, POST /api/v1/tool-hosts/calls/progress and POST /api/v1/tool-hosts/goodbye";

/** Any other method on an endpoint: 405 with the methods it takes. */
export function methodNotAllowed(allow: string) {
  return async (req: Request): Promise<Response> => {
    const res = problem("METHOD_NOT_ALLOWED", `${req.method} is not supported here; use ${allow}.`);
    res.headers.set("allow", allow);
    return res;
  };
}

/** A path under /api/v1/tool-hosts/ that is not an endpoint. */
export async function unknownEndpoint(req: Request): Promise<Response> {
  return problem(
    "NOT_FOUND",
    `${new URL(req.url).pathname} is not an endpoint; the SDK Tool Host API has ${ENDPOINTS}.`,
  );
}
