/**
 * tools/call at /mcp in plain JSON-RPC over HTTP (no SDK client, so tests read the same
 * whichever SDK the route is built on). No server imports: e2e specs use it too.
 */
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

/** One JSON-RPC message POSTed to /mcp with an agent token, with no revision header unless given. */
export function postMcp(mcpUrl: string, token: string, body: unknown, headers: Record<string, string> = {}) {
  return postMcpText(mcpUrl, token, JSON.stringify(body), headers);
}

/** A body as given, for JSON no value could be stringified to (too deep, malformed). */
export function postMcpText(mcpUrl: string, token: string, body: string, headers: Record<string, string> = {}) {
  return fetch(mcpUrl, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body,
  });
}

export async function callTool(
  mcpUrl: string,
  token: string,
  name: string,
  args: unknown = {},
  headers: Record<string, string> = {},
): Promise<RpcAnswer> {
  return callRpc(mcpUrl, token, "tools/call", { name, arguments: args }, headers);
}

/** Any JSON-RPC method at /mcp (resources/read, prompts/get …), answered as callTool's. */
export async function callRpc(
  mcpUrl: string,
  token: string,
  method: string,
  params: unknown,
  headers: Record<string, string> = {},
): Promise<RpcAnswer> {
  const response = await postMcp(
    mcpUrl,
    token,
    { jsonrpc: "2.0", id: ++id, method, params },
    { "mcp-protocol-version": "2025-11-25", ...headers },
  );
  const text = await response.text();
  const body = text ? (parseAnswer(text) as { result?: RpcAnswer["result"]; error?: RpcAnswer["error"] }) : {};
  return { status: response.status, result: body.result, error: body.error };
}

/** The JSON-RPC answer, sent as JSON or as Server-Sent Events (the answer is the event with an id). */
function parseAnswer(text: string): unknown {
  if (!text.startsWith("event:") && !text.startsWith("data:") && !text.startsWith(":")) return JSON.parse(text);
  for (const event of text.split(/\n\n/)) {
    const data = event
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).trimStart())
      .join("\n");
    if (!data) continue;
    const message = JSON.parse(data) as { id?: unknown };
    if (message.id !== undefined) return message;
  }
  throw new Error(`No answer in the event stream: ${text.slice(0, 200)}`);
}
