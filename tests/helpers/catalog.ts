import type { CallToolResult } from "@modelcontextprotocol/server";
import { expect } from "vitest";
import { getDb } from "@/server/db";
import { callerFor, makeUser } from "./actors";
import { simpleTool, startSdkServer, type ToolDef } from "./mcp-servers";

export async function operator() {
  return callerFor((await makeUser("operator")).actor);
}

let counter = 0;
/**
 * A Connection under the `trust` policy unless `reviewPolicy` says otherwise: tests of catalog
 * mechanics (growth, names, budgets) expect what a server publishes to be offered. Review of
 * changed definitions has its own tests (tool-review.test.ts), on the product's default.
 */
export async function connectionTo(
  url: string,
  extra: { headers?: Record<string, string>; name?: string; reviewPolicy?: "review" | "trust" } = {},
) {
  const api = await operator();
  const source = await api.sources.createMcpConnection({
    name: extra.name ?? `conn-${++counter}-${Date.now()}`,
    url,
    headers: extra.headers,
    reviewPolicy: extra.reviewPolicy ?? "trust",
  });
  return { api, source };
}

/** The active catalog of a Source exactly as stored, to compare before and after a failed check. */
export async function snapshot(sourceId: string) {
  const db = await getDb();
  const tools = await db.tool.findMany({ where: { sourceId }, orderBy: { nativeName: "asc" } });
  const definitions = await db.toolDefinition.findMany({
    where: { hash: { in: tools.map((t) => t.definitionHash) } },
    orderBy: { hash: "asc" },
    select: { hash: true, definition: true },
  });
  const source = await db.source.findUniqueOrThrow({
    where: { id: sourceId },
    select: { toolCount: true, compatibleToolCount: true, modelFacingBytes: true, definitionBytes: true },
  });
  return JSON.stringify({ tools, definitions, source });
}

export type OnCall = (name: string, args: Record<string, unknown>) => CallToolResult | Promise<CallToolResult>;

/**
 * A loopback SDK server serving `tools` (a bare name is a Tool that takes any arguments:
 * /mcp checks arguments against the schema before a call), as a Connection whose first
 * check succeeded. The server joins `closers`.
 */
export async function checkedSource(
  closers: (() => Promise<unknown>)[],
  tools: readonly (string | ToolDef)[],
  onCall?: OnCall,
) {
  const defs = tools.map((t) => (typeof t === "string" ? simpleTool(t, { inputSchema: { type: "object" } }) : t));
  const server = await startSdkServer({ catalog: () => defs, onCall });
  closers.push(server.close);
  const { api, source } = await connectionTo(server.url);
  expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
  return { api, source, server };
}
