/**
 * DomainError → JSON-RPC error for /mcp. The Quartermaster code travels in `data.code`
 * and leads the message, so an agent (or the person reading its log) sees which state
 * refused it; unexpected failures are logged and answered without their internals.
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
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
