/**
 * Real MCP client libraries on each protocol revision /mcp serves, behind one shape so a
 * test reads the same results through all of them: the MCP SDK 1.12 client (2025-03-26,
 * still pinned by many published clients), the 1.32 client (2025-11-25), and the v2 client
 * pinned to 2025-03-26, 2025-06-18 and 2026-07-28.
 */
import { Client, type ClientOptions, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as Client132 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Transport132 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as Client112 } from "mcp-sdk-v1-12/client/index.js";
import { StreamableHTTPClientTransport as Transport112 } from "mcp-sdk-v1-12/client/streamableHttp.js";

type Params = Record<string, unknown>;
type Result = Record<string, unknown> & { content?: { type: string; [k: string]: unknown }[] };

/** The calls tests make, as each library names them. */
export interface AnyClient {
  label: string;
  revision: string;
  listTools(params?: Params): Promise<{ tools: Record<string, unknown>[]; nextCursor?: string }>;
  callTool(params: { name: string; arguments?: Params }): Promise<Result>;
  listResources(params?: Params): Promise<{ resources: Record<string, unknown>[]; nextCursor?: string }>;
  listResourceTemplates(
    params?: Params,
  ): Promise<{ resourceTemplates: Record<string, unknown>[]; nextCursor?: string }>;
  readResource(params: { uri: string }): Promise<{ contents: Record<string, unknown>[] }>;
  listPrompts(params?: Params): Promise<{ prompts: Record<string, unknown>[]; nextCursor?: string }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{
    messages: { role: string; content: { type: string; [k: string]: unknown } }[];
  }>;
  close(): Promise<void>;
}

export const CLIENT_KINDS = ["sdk-1.12", "v2@2025-03-26", "v2@2025-06-18", "sdk-1.32", "v2@2026-07-28"] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

export async function connectClient(kind: ClientKind, url: string, token: string): Promise<AnyClient> {
  const requestInit = { headers: { authorization: `Bearer ${token}` } };
  const info = { name: `test-${kind}`, version: "1" };
  let client: unknown;
  let revision: string;
  if (kind === "sdk-1.12") {
    const c = new Client112(info);
    await c.connect(new Transport112(new URL(url), { requestInit }));
    client = c;
    revision = "2025-03-26";
  } else if (kind === "sdk-1.32") {
    const c = new Client132(info);
    await c.connect(new Transport132(new URL(url), { requestInit }));
    client = c;
    revision = "2025-11-25";
  } else {
    revision = kind.slice("v2@".length);
    const options: ClientOptions =
      revision === "2026-07-28"
        ? { versionNegotiation: { mode: { pin: "2026-07-28" } } }
        : { supportedProtocolVersions: [revision] };
    const c = new Client(info, options);
    await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
    if (c.getNegotiatedProtocolVersion() !== revision)
      throw new Error(`${kind} negotiated ${c.getNegotiatedProtocolVersion()}`);
    client = c;
  }
  return Object.assign(client as Omit<AnyClient, "label" | "revision">, { label: kind, revision });
}
