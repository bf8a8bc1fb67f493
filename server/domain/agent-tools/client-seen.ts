/**
 * Which MCP client an agent's request came from, for a memory's provenance. A 2026-07-28
 * request names its client in every request's `_meta`; a 2025-era client names it only in
 * initialize, and its later tools/call requests (stateless, no session) name none. So each
 * initialize is remembered per token, and a call that names no client is attributed to the
 * client its token last introduced (docs/decisions/0089 says what that can get wrong).
 */
import { getDb } from "../../db";
import type { Tx } from "../../db/types";
import { log } from "../../log";
import { storableCopy } from "../storable-text";

export interface McpClient {
  name: string;
  version: string;
}

/** Client names are short labels; a longer one is cut, not refused (the call must go on). */
const CLIENT_FIELD_CHARS = 200;

function clean(value: unknown): string | null {
  if (typeof value !== "string" || !value.trim()) return null;
  return storableCopy(value.trim().slice(0, CLIENT_FIELD_CHARS));
}

/** `{ name, version }` from a clientInfo object, or null when it names no client. */
export function clientOf(info: unknown): McpClient | null {
  if (!info || typeof info !== "object") return null;
  const name = clean((info as { name?: unknown }).name);
  if (!name) return null;
  return { name, version: clean((info as { version?: unknown }).version) ?? "" };
}

const CLIENT_INFO_META_KEY = "io.modelcontextprotocol/clientInfo";

/** The client a JSON-RPC request names: 2026-07-28 `_meta`, or a 2025-era initialize's clientInfo. */
export function clientOfRequest(body: unknown): { client: McpClient | null; introduces: boolean } {
  const message = body as { method?: unknown; params?: { clientInfo?: unknown; _meta?: Record<string, unknown> } };
  if (!message || typeof message !== "object" || Array.isArray(body)) return { client: null, introduces: false };
  const fromMeta = clientOf(message.params?._meta?.[CLIENT_INFO_META_KEY]);
  if (fromMeta) return { client: fromMeta, introduces: false };
  if (message.method === "initialize") return { client: clientOf(message.params?.clientInfo), introduces: true };
  return { client: null, introduces: false };
}

/** Remembers the client a token's initialize introduced; a failure costs provenance, not the request. */
export async function rememberClient(tokenId: string, client: McpClient): Promise<void> {
  try {
    const db = await getDb();
    const seenAt = new Date();
    await db.mcpClientSeen.upsert({
      where: { tokenId },
      create: { tokenId, ...client, seenAt },
      update: { ...client, seenAt },
    });
  } catch (error) {
    log.warn({ err: error }, "the MCP client a token introduced could not be recorded");
  }
}

/**
 * The client a token last introduced, or null when it never did. Read through `tx`, the
 * writer's transaction: the embedded database has one connection, which the transaction holds.
 */
export async function clientOfToken(tx: Tx, tokenId: string): Promise<McpClient | null> {
  return tx.mcpClientSeen.findUnique({ where: { tokenId }, select: { name: true, version: true } });
}
