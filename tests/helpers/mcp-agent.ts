/**
 * An agent as /mcp meets it, in plain JSON-RPC over HTTP (no SDK client, so these tests
 * read the same whichever SDK the route is built on): an identity holding some Sources,
 * its token, and tools/call.
 */
import { operator } from "./catalog";

let k = 0;
/** An identity holding the given Sources, and an agent token for it. */
export async function agentFor(sourceIds: string[]) {
  const api = await operator();
  const identity = await api.identities.create({ name: `agent-${++k}-${Date.now()}` });
  for (const sourceId of sourceIds) await api.identities.assignSource({ identityId: identity.id, sourceId });
  const { value: token, token: row } = await api.identities.createToken({ identityId: identity.id, name: "test" });
  return { api, identity, token, tokenId: row.id };
}

export interface RpcAnswer {
  status: number;
  result?: {
    content: { type: string; text?: string }[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  };
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

let id = 0;
export async function callTool(
  mcpUrl: string,
  token: string,
  name: string,
  args: unknown = {},
  headers: Record<string, string> = {},
): Promise<RpcAnswer> {
  const response = await fetch(mcpUrl, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name, arguments: args } }),
  });
  const text = await response.text();
  const body = text ? (JSON.parse(text) as { result?: RpcAnswer["result"]; error?: RpcAnswer["error"] }) : {};
  return { status: response.status, result: body.result, error: body.error };
}
