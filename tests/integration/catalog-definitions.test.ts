import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { DEFINITION_GRACE_MS, sweepDefinitions } from "@/server/domain/catalog/definitions";
import { publishCatalog, readCatalog } from "@/server/domain/catalog/publish";
import { getTool } from "@/server/domain/catalog/queries";
import { validateToolDefinition } from "@/server/domain/catalog/validate-tool";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { hostWith } from "../helpers/hosts";
import { type RunningServer, simpleTool, startSdkServer, type ToolDef } from "../helpers/mcp-servers";

withTestDatabase();

// Each test counts the definitions stored in this file's database: it starts from none.
beforeEach(async () => {
  const db = await getDb();
  await db.source.deleteMany();
  await db.toolDefinition.deleteMany();
});

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function definitionRows() {
  const db = await getDb();
  return db.toolDefinition.findMany({ orderBy: { hash: "asc" }, select: { hash: true, stagedAt: true } });
}

/** Moves every stored definition's stamp past the sweep's grace period. */
async function ageDefinitions() {
  const db = await getDb();
  await db.toolDefinition.updateMany({ data: { stagedAt: new Date(Date.now() - DEFINITION_GRACE_MS - 60_000) } });
}

async function definitionOf(sourceId: string, nativeName: string) {
  const db = await getDb();
  const tool = await db.tool.findFirstOrThrow({ where: { sourceId, nativeName }, select: { id: true } });
  return (await getTool(SYSTEM, { id: tool.id })).definition;
}

describe("stored Tool definitions", () => {
  it("are shared by Sources that publish the same Tool, and each Tool shows its definition", async () => {
    const catalog: ToolDef[] = [simpleTool("lookup"), simpleTool("search", { description: "Full-text search." })];
    const server = await startSdkServer({ catalog: () => catalog });
    servers.push(server);
    const first = await connectionTo(server.url);
    const second = await connectionTo(server.url);
    expect(await first.api.sources.checkNow({ id: first.source.id })).toMatchObject({ status: "succeeded", added: 2 });
    expect(await second.api.sources.checkNow({ id: second.source.id })).toMatchObject({
      status: "succeeded",
      added: 2,
    });

    expect(await definitionRows()).toHaveLength(2);
    for (const source of [first.source, second.source])
      expect(await definitionOf(source.id, "search")).toMatchObject({
        name: "search",
        description: "Full-text search.",
      });
  });

  it("are not rewritten by a re-check that finds them unchanged", async () => {
    const server = await startSdkServer({ catalog: () => [simpleTool("steady")] });
    servers.push(server);
    const { api, source } = await connectionTo(server.url);
    await api.sources.checkNow({ id: source.id });
    await ageDefinitions();
    const aged = await definitionRows();

    expect(await api.sources.checkNow({ id: source.id })).toMatchObject({ status: "succeeded", changed: 0 });
    expect(await definitionRows()).toEqual(aged);
  });

  it("are swept once no Tool refers to them and the grace period has passed, never before", async () => {
    let catalog: ToolDef[] = [simpleTool("kept"), simpleTool("revised")];
    const server = await startSdkServer({ catalog: () => catalog });
    servers.push(server);
    const { api, source } = await connectionTo(server.url);
    await api.sources.checkNow({ id: source.id });
    catalog = [catalog[0]!, simpleTool("revised", { description: "Second version." })];
    expect(await api.sources.checkNow({ id: source.id })).toMatchObject({ changed: 1 });
    expect(await definitionRows()).toHaveLength(3);

    // The first "revised" is unreferenced now, but still within its grace period.
    expect(await sweepDefinitions()).toBe(0);
    await ageDefinitions();
    expect(await sweepDefinitions()).toBe(1);
    expect(await definitionRows()).toHaveLength(2);
    expect(await definitionOf(source.id, "revised")).toMatchObject({ description: "Second version." });
    expect(await definitionOf(source.id, "kept")).toMatchObject({ name: "kept" });
  });

  it("are written by a publication that needs one nobody staged (a registration, or one swept meanwhile)", async () => {
    const { source, register } = await hostWith([simpleTool("hosted")]);
    expect(await definitionOf(source.id, "hosted")).toMatchObject({ name: "hosted" });

    // The host withdraws the Tool, its definition is swept, then a publication brings it back
    // claiming nothing was staged: it must store the definition itself.
    await register([]);
    await ageDefinitions();
    expect(await sweepDefinitions()).toBe(1);
    const tool = validateToolDefinition(simpleTool("hosted"), { index: 0 });
    await publishCatalog(source.id, [tool], { staged: new Set() });
    expect(await definitionOf(source.id, "hosted")).toMatchObject({ name: "hosted" });
  });

  it("left behind by a failed check are swept, and the catalog keeps its own", async () => {
    let catalog: ToolDef[] = [simpleTool("alpha")];
    const server = await startSdkServer({ catalog: () => catalog, pageSize: 1 });
    servers.push(server);
    const { api, source } = await connectionTo(server.url);
    await api.sources.checkNow({ id: source.id });
    // Page 1 is new and gets staged; page 2 repeats a name, which fails the whole check.
    catalog = [simpleTool("beta"), simpleTool("beta")];
    expect(await api.sources.checkNow({ id: source.id })).toMatchObject({
      status: "failed",
      failure: { code: "CATALOG_DUPLICATE_TOOL_NAME" },
    });
    await ageDefinitions();
    await sweepDefinitions();
    expect(await definitionRows()).toHaveLength(1);
    expect(await definitionOf(source.id, "alpha")).toMatchObject({ name: "alpha" });
  });
});

describe("a publication given the catalog a check read before listing", () => {
  const published = (...raw: ToolDef[]) => raw.map((t, index) => validateToolDefinition(t, { index }));
  async function namesOf(sourceId: string) {
    const db = await getDb();
    const tools = await db.tool.findMany({ where: { sourceId }, orderBy: { nativeName: "asc" } });
    return tools.map((t) => t.nativeName);
  }

  it("uses it while it is current, and diffs against the stored catalog once another publication came in between", async () => {
    const { source, register } = await hostWith([simpleTool("a"), simpleTool("b")]);
    const db = await getDb();
    const firstSeen = (await db.tool.findFirstOrThrow({ where: { sourceId: source.id, nativeName: "b" } })).firstSeenAt;
    const fresh = await readCatalog(db, source.id);
    expect(
      await publishCatalog(source.id, published(simpleTool("a"), simpleTool("b", { description: "v2" })), {
        snapshot: fresh,
      }),
    ).toMatchObject({ added: 0, removed: 0, changed: 1 });
    // A changed Tool keeps its identity: same id, first seen when it first appeared.
    const b = await db.tool.findFirstOrThrow({ where: { sourceId: source.id, nativeName: "b" } });
    expect(b.firstSeenAt).toEqual(firstSeen);
    expect(b.description).toBe("v2");

    const stale = await readCatalog(db, source.id);
    await register([simpleTool("a"), simpleTool("c")]);
    // Against the stale read this would look like "b changed"; the catalog now holds a and c.
    expect(
      await publishCatalog(source.id, published(simpleTool("a"), simpleTool("b")), { snapshot: stale }),
    ).toMatchObject({ added: 1, removed: 1, changed: 0 });
    expect(await namesOf(source.id)).toEqual(["a", "b"]);
  });
});
