import { getDb } from "@/server/db";
import { callerFor, makeUser } from "./actors";

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
