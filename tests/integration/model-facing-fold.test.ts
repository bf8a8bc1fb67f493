import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { foldModelFacingName } from "@/server/domain/catalog/model-facing-name";
import { checkedSource } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { simpleTool, type ToolDef } from "../helpers/mcp-servers";

withTestDatabase();
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

const checkedSourceOf = (tools: ToolDef[]) => checkedSource(closers, tools);

async function namesOf(sourceId: string) {
  const db = await getDb();
  const rows = await db.tool.findMany({ where: { sourceId }, select: { nativeName: true, modelFacingName: true } });
  return Object.fromEntries(rows.map((r) => [r.nativeName, r.modelFacingName as string]));
}

describe("model-facing names folded as SDKs rewrite them", () => {
  it("never meet after '-' becomes '_' and case is ignored, across Sources and within one", async () => {
    const a = await checkedSourceOf([simpleTool("get-sum")]);
    const b = await checkedSourceOf([simpleTool("get_sum"), simpleTool("Get_Sum"), simpleTool("GET-SUM")]);
    // A built-in's name in another case or with a hyphen is not given either.
    const c = await checkedSourceOf([simpleTool("Find-Tools"), simpleTool("SEARCH")]);
    const all = [
      ...Object.values(await namesOf(a.source.id)),
      ...Object.values(await namesOf(b.source.id)),
      ...Object.values(await namesOf(c.source.id)),
    ];
    expect(all).toHaveLength(6);
    expect(new Set(all.map(foldModelFacingName)).size).toBe(6);
    for (const name of all) expect(["find_tools", "search"]).not.toContain(foldModelFacingName(name));
    expect((await namesOf(a.source.id))["get-sum"]).toBe("get-sum");
  });

  it("stay as they were given when the Source is checked again", async () => {
    const tools = [simpleTool("sum-up"), simpleTool("Sum_Up")];
    const { api, source } = await checkedSourceOf(tools);
    const before = await namesOf(source.id);
    expect(foldModelFacingName(before["sum-up"] as string)).not.toBe(foldModelFacingName(before.Sum_Up as string));
    await api.sources.checkNow({ id: source.id });
    expect(await namesOf(source.id)).toEqual(before);
  });
});
