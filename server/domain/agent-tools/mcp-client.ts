/**
 * Which MCP client sent a /mcp request, as it names itself (clientInfo: self-reported, for
 * display and evidence, never for a decision). A 2026-07-28 request names it in every
 * request's `_meta`; a 2025-era client names it only in initialize, and /mcp keeps no
 * session, so each token's last initialize is remembered and a later request that names no
 * client is taken to come from the one its token introduced.
 */
import { getDb } from "../../db";
import { log } from "../../log";
import { storableCopy } from "../storable-text";

export interface McpClient {
  name: string;
  version: string;
}

/** A lazily found client: only the requests that record evidence pay the look-up. */
export type ClientOf = () => Promise<McpClient | null>;

const CLIENT_INFO_META_KEY = "io.modelcontextprotocol/clientInfo";
/** Client names are labels; a longer one is cut, not refused (the request must go on). */
const CLIENT_FIELD_CHARS = 200;

function field(value: unknown): string | null {
  if (typeof value !== "string" || !value.trim()) return null;
  return storableCopy(value.trim().slice(0, CLIENT_FIELD_CHARS));
}

/** `{ name, version }` from a clientInfo object, or null when it names no client. */
export function clientOf(info: unknown): McpClient | null {
  if (!info || typeof info !== "object") return null;
  const name = field((info as { name?: unknown }).name);
  return name ? { name, version: field((info as { version?: unknown }).version) ?? "" } : null;
}

/** The client a JSON-RPC message names: 2026-07-28 `_meta`, or a 2025-era initialize's clientInfo. */
export function clientOfMessage(body: unknown): { client: McpClient | null; introduces: boolean } {
  if (!body || typeof body !== "object" || Array.isArray(body)) return { client: null, introduces: false };
  const message = body as { method?: unknown; params?: { clientInfo?: unknown; _meta?: Record<string, unknown> } };
  const named = clientOf(message.params?._meta?.[CLIENT_INFO_META_KEY]);
  if (named) return { client: named, introduces: false };
  if (message.method === "initialize") return { client: clientOf(message.params?.clientInfo), introduces: true };
  return { client: null, introduces: false };
}

/** Remembers the client a token's initialize introduced; a failure costs evidence, not the request. */
export async function rememberTokenClient(tokenId: string, client: McpClient): Promise<void> {
  try {
    const db = await getDb();
    const seenAt = new Date();
    await db.mcpTokenClient.upsert({
      where: { tokenId },
      create: { tokenId, ...client, seenAt },
      update: { ...client, seenAt },
    });
  } catch (error) {
    log.warn({ err: error }, "the MCP client a token introduced could not be recorded");
  }
}

/** The client a token last introduced, or null when it never did. */
export async function tokenClient(tokenId: string): Promise<McpClient | null> {
  const db = await getDb();
  return db.mcpTokenClient.findUnique({ where: { tokenId }, select: { name: true, version: true } });
}

/**
 * The client of one request, found once: the one it names, else (2025-era requests after
 * initialize) the one its token introduced.
 */
export function requestClient(named: McpClient | null, tokenId: string | null): ClientOf {
  let found: Promise<McpClient | null> | undefined;
  return () => {
    found ??= named ? Promise.resolve(named) : tokenId ? tokenClient(tokenId) : Promise.resolve(null);
    return found;
  };
}

export async function sweepTokenClients(before: Date): Promise<number> {
  const db = await getDb();
  return (await db.mcpTokenClient.deleteMany({ where: { seenAt: { lt: before } } })).count;
}
