/**
 * DomainError → JSON-RPC error for /mcp. The Quartermaster code travels in `data.code`
 * and leads the message, so an agent (or the person reading its log) sees which state
 * refused it; unexpected failures are logged and answered without their internals.
 */
import {
  isJSONRPCErrorResponse,
  type JSONRPCMessage,
  ProtocolError,
  ProtocolErrorCode,
} from "@modelcontextprotocol/server";
import { DomainError, jsonRpcErrorBody, jsonRpcErrorOf } from "../errors";
import { log } from "../log";

export function toMcpError(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (error instanceof DomainError) {
    const { code, message, data } = jsonRpcErrorOf(error);
    return new ProtocolError(code, message, data);
  }
  log.error({ err: error }, "/mcp request broke");
  return new ProtocolError(ProtocolErrorCode.InternalError, "Unexpected failure; the server log has details.");
}

/** A JSON-RPC error answered before any MCP exchange (authentication, origin, body size), with its code's status. */
export function jsonRpcErrorResponse(error: DomainError, headers: Record<string, string> = {}): Response {
  return Response.json(jsonRpcErrorBody(error), { status: error.status, headers });
}

/** Resource not found in revisions 2025-06-18 and 2025-11-25 (2026-07-28 made it -32602). */
const RESOURCE_NOT_FOUND_2025 = -32002;

/**
 * A message for a 2025-era client: the SDK answers a resources/read miss -32602 on every
 * revision, the code of 2026-07-28, while the earlier revisions name -32002 and their
 * clients (and docs/mcp.md) look for that. A miss is the SDK's ResourceNotFoundError:
 * -32602 with data exactly { uri }, which nothing else here sends.
 */
export function inRevision2025Codes(message: JSONRPCMessage): JSONRPCMessage {
  // Every answer passes here: the cheap look first, the SDK's schema check only for errors.
  const error = (message as { error?: { code?: unknown } }).error;
  if (error?.code !== ProtocolErrorCode.InvalidParams || !isJSONRPCErrorResponse(message)) return message;
  const data = message.error.data as Record<string, unknown> | undefined;
  if (!data || typeof data.uri !== "string" || Object.keys(data).length !== 1) return message;
  return { ...message, error: { ...message.error, code: RESOURCE_NOT_FOUND_2025 } };
}
