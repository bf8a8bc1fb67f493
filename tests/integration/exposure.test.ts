/**
 * Exposure: an identity holding thousands of Tools is listed a selection (pins, then its
 * most-used Tools, up to its listing budget), the same on every call of a day, while every
 * held Tool stays callable directly by name.
 */
import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { dayStart } from "@/server/domain/agent-tools/exposure";
import { flushCallLog } from "@/server/domain/calls/recorder";
import { LIMITS } from "@/server/limits";
import { builtInTools } from "@/server/mcp/tools/registry";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { hostWith, toolsOfModelBytes } from "../helpers/hosts";
import { agentFor } from "../helpers/mcp-agent";
import { mcpRoute } from "../helpers/mcp-route";
import { simpleTool, startSdkServer } from "../helpers/mcp-servers";

withTestDatabase();
const mcp = mcpRoute();
const closers = mcp.closers;

function connect(token: string) {
  return mcp.connect(token, "exposure-test");
}

async function listAll(client: Client) {
  const tools: { name: string }[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

const BUILT_INS = builtInTools.map((t) => t.name);
const catalogNames = (tools: { name: string }[]) => tools.map((t) => t.name).filter((n) => !BUILT_INS.includes(n));

describe("exposure", () => {
  it("lists an identity of 15,000 small Tools within its listing budget under auto: pinned Tools first, then its most used, the same on every call", async () => {
    const hosts = [];
    for (let h = 0; h < 4; h++) hosts.push(await hostWith(toolsOfModelBytes(3750, 100, `big${h}`)));
    const { api, identity, token } = await agentFor(hosts.map((h) => h.source.id));
    const client = await connect(token);

    const detail = await api.identities.get({ id: identity.id });
    expect(detail.listing).toMatchObject({
      exposure: "auto",
      mode: "selection",
      heldTools: 15_000,
      heldBytes: 1_500_000,
      budgetBytes: LIMITS.LISTING_BUDGET_BYTES.value,
      listedTools: 0,
    });
    // Nothing pinned or used yet: the built-ins alone, far below 4 MiB.
    expect((await listAll(client)).map((t) => t.name)).toEqual(BUILT_INS);

    await api.identities.pinTool({ identityId: identity.id, name: "big2_00007" });
    await api.identities.pinTool({ identityId: identity.id, name: "big0_00001" });
    await expect(api.identities.pinTool({ identityId: identity.id, name: "not_held" })).rejects.toThrow(
      /holds no Tool named "not_held"/,
    );
    // Usage of earlier days counts; today's does not move the listing until tomorrow.
    const db = await getDb();
    const yesterday = new Date(dayStart().getTime() - 3_600_000);
    const row = (toolName: string, startedAt: Date) => ({
      startedAt,
      durationMs: 1,
      identityId: identity.id,
      identityName: identity.name,
      toolName,
      outcome: "ok" as const,
      bytesIn: 1,
      bytesOut: 1,
    });
    await db.callLog.createMany({
      data: [
        row("big3_00003", yesterday),
        row("big3_00003", yesterday),
        row("big1_00005", yesterday),
        row("big0_00001", yesterday),
        row("big1_00009", new Date()),
        row("search", yesterday),
      ],
    });

    const first = await listAll(client);
    expect(first.slice(0, BUILT_INS.length).map((t) => t.name)).toEqual(BUILT_INS);
    expect(catalogNames(first)).toEqual(["big2_00007", "big0_00001", "big3_00003", "big1_00005"]);
    const second = await listAll(client);
    expect(second).toEqual(first);
    const listed = await api.identities.get({ id: identity.id });
    expect(listed.listing).toMatchObject({ listedTools: 4, listedBytes: 400, pinned: ["big2_00007", "big0_00001"] });

    // A budget of 2 KiB holds 20 of these: every used Tool is listed up to it, no further.
    await db.callLog.createMany({
      data: Array.from({ length: 40 }, (_, i) => row(`big1_${String(100 + i).padStart(5, "0")}`, yesterday)),
    });
    await api.identities.update({ id: identity.id, listingBudgetBytes: 2048 });
    const capped = catalogNames(await listAll(client));
    expect(capped).toHaveLength(20);
    expect(capped.slice(0, 2)).toEqual(["big2_00007", "big0_00001"]);

    // all: every held Tool, paged.
    await api.identities.update({ id: identity.id, exposure: "all" });
    expect(catalogNames(await listAll(client))).toHaveLength(15_000);
    await api.identities.unpinTool({ identityId: identity.id, name: "big2_00007" });
    expect((await api.identities.get({ id: identity.id })).listing.pinned).toEqual(["big0_00001"]);
  }, 240_000);

  it("under a selection, calls a held but unlisted Tool directly with checked arguments and logs it; a Tool not held is refused", async () => {
    const calls: string[] = [];
    const server = await startSdkServer({
      catalog: () => [simpleTool("unlisted_lookup"), simpleTool("listed_lookup")],
      onCall: (name, args) => {
        calls.push(`${name}:${JSON.stringify(args)}`);
        return { content: [{ type: "text", text: `ok ${name}` }] };
      },
    });
    closers.push(server.close);
    const { api, source } = await connectionTo(server.url);
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
    const { identity, token } = await agentFor([source.id]);
    await api.identities.update({ id: identity.id, exposure: "selection" });
    await api.identities.pinTool({ identityId: identity.id, name: "listed_lookup" });
    const client = await connect(token);
    expect(catalogNames(await listAll(client))).toEqual(["listed_lookup"]);

    const called = (await client.callTool({ name: "unlisted_lookup", arguments: { query: "x" } })) as CallToolResult;
    expect(called.isError).toBeFalsy();
    expect(called.content).toEqual([{ type: "text", text: "ok unlisted_lookup" }]);
    const wrong = (await client.callTool({ name: "unlisted_lookup", arguments: { query: 1 } })) as CallToolResult;
    expect(wrong.isError).toBe(true);
    expect(calls).toEqual(['unlisted_lookup:{"query":"x"}']);
    // find_tools reaches it with what a call needs.
    const found = await client.callTool({ name: "find_tools", arguments: { query: "unlisted lookup" } });
    expect((found.structuredContent as { tools: { name: string; inputSchema: unknown }[] }).tools[0]).toMatchObject({
      name: "unlisted_lookup",
      inputSchema: simpleTool("x").inputSchema,
    });
    await expect(client.callTool({ name: "nowhere_lookup", arguments: {} })).rejects.toThrow(/NOT_FOUND/);

    await flushCallLog();
    const db = await getDb();
    const rows = await db.callLog.findMany({ where: { identityId: identity.id }, orderBy: { startedAt: "asc" } });
    expect(rows.map((r) => [r.toolName, r.outcome])).toEqual([
      ["unlisted_lookup", "ok"],
      ["unlisted_lookup", "failed"],
      ["find_tools", "ok"],
      ["nowhere_lookup", "failed"],
    ]);
  });

  it("call_tool runs a held but unlisted Tool exactly as a direct call: checked arguments, the call log under its name, and the reason a Tool is not held", async () => {
    const calls: string[] = [];
    const server = await startSdkServer({
      catalog: () => [simpleTool("hidden_lookup"), simpleTool("pinned_lookup")],
      onCall: (name, args) => {
        calls.push(`${name}:${JSON.stringify(args)}`);
        return { content: [{ type: "text", text: `ok ${name}` }], structuredContent: { echoed: args } };
      },
    });
    closers.push(server.close);
    const other = await startSdkServer({ catalog: () => [simpleTool("gone_lookup")], onCall: () => ({ content: [] }) });
    closers.push(other.close);
    const { api, source } = await connectionTo(server.url);
    const { source: otherSource } = await connectionTo(other.url);
    for (const id of [source.id, otherSource.id]) expect((await api.sources.checkNow({ id })).status).toBe("succeeded");
    const { identity, token } = await agentFor([source.id, otherSource.id]);
    await api.identities.update({ id: identity.id, exposure: "selection" });
    await api.identities.pinTool({ identityId: identity.id, name: "pinned_lookup" });
    const client = await connect(token);
    const listed = await listAll(client);
    expect(catalogNames(listed)).toEqual(["pinned_lookup"]);
    // Its result is the called Tool's, so it declares no output schema a client would hold it to.
    expect(listed.find((t) => t.name === "call_tool")).not.toHaveProperty("outputSchema");

    const via = (name: string, args?: unknown) =>
      client.callTool({
        name: "call_tool",
        arguments: { name, ...(args === undefined ? {} : { arguments: args }) },
      }) as Promise<CallToolResult>;
    const ok = await via("hidden_lookup", { query: "x" });
    expect(ok.isError).toBeFalsy();
    expect(ok.content).toEqual([{ type: "text", text: "ok hidden_lookup" }]);
    expect(ok.structuredContent).toEqual({ echoed: { query: "x" } });
    expect(await via("hidden_lookup", { query: "x" })).toEqual(
      await client.callTool({ name: "hidden_lookup", arguments: { query: "x" } }),
    );

    // The Tool's own schema is checked before anything reaches the Source.
    const wrong = await via("hidden_lookup", { query: 1 });
    expect(wrong.isError).toBe(true);
    expect(wrong.structuredContent).toMatchObject({ error: { code: "INVALID_ARGUMENTS" } });
    expect(JSON.stringify(wrong.content)).toMatch(/query: must be string/);
    const missing = await via("hidden_lookup");
    expect(JSON.stringify(missing.content)).toMatch(/query is required/);
    expect(calls).toEqual(Array(3).fill('hidden_lookup:{"query":"x"}'));

    // call_tool's own arguments: a clear refusal naming the field.
    const noName = (await client.callTool({ name: "call_tool", arguments: { arguments: {} } })) as CallToolResult;
    expect(noName.isError).toBe(true);
    expect(JSON.stringify(noName.content)).toMatch(/INVALID_ARGUMENTS: name is required/);
    const badArgs = (await client.callTool({
      name: "call_tool",
      arguments: { name: "hidden_lookup", arguments: ["x"] },
    })) as CallToolResult;
    expect(JSON.stringify(badArgs.content)).toMatch(/INVALID_ARGUMENTS: arguments must be/);
    const itself = await via("call_tool", { name: "hidden_lookup" });
    expect(JSON.stringify(itself.content)).toMatch(/call_tool runs another Tool, not itself/);

    // Not held: never heard of (a result the model can act on, not a protocol error), and lost.
    const unknown = await via("nowhere_lookup", {});
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toMatchObject({ error: { code: "NOT_FOUND", field: "name" } });
    expect(JSON.stringify(unknown.content)).toMatch(/Call find_tools with what you want to do/);
    await api.identities.unassignSource({ identityId: identity.id, sourceId: otherSource.id });
    for (const lost of [
      await via("gone_lookup", { query: "q" }),
      (await client.callTool({ name: "gone_lookup", arguments: { query: "q" } })) as CallToolResult,
    ]) {
      expect(lost.isError).toBe(true);
      expect(lost.structuredContent).toMatchObject({ error: { code: "TOOL_NOT_HELD", reason: "source_unassigned" } });
      expect(JSON.stringify(lost.content)).toMatch(/no longer holds \\"gone_lookup\\": .*its Source was unassigned/);
    }
    // A built-in through call_tool is that built-in's call.
    const found = await via("find_tools", { query: "hidden lookup" });
    expect((found.structuredContent as { tools: { name: string }[] }).tools[0]?.name).toBe("hidden_lookup");
    expect(calls).toHaveLength(3);

    await flushCallLog();
    const db = await getDb();
    const rows = await db.callLog.findMany({ where: { identityId: identity.id }, orderBy: { startedAt: "asc" } });
    expect(rows.map((r) => [r.toolName, r.outcome, r.failureCode])).toEqual([
      ["hidden_lookup", "ok", null],
      ["hidden_lookup", "ok", null],
      ["hidden_lookup", "ok", null],
      ["hidden_lookup", "failed", "INVALID_ARGUMENTS"],
      ["hidden_lookup", "failed", "INVALID_ARGUMENTS"],
      ["call_tool", "failed", "INVALID_ARGUMENTS"],
      ["call_tool", "failed", "INVALID_ARGUMENTS"],
      ["call_tool", "failed", "INVALID_ARGUMENTS"],
      ["nowhere_lookup", "failed", "NOT_FOUND"],
      ["gone_lookup", "failed", "TOOL_NOT_HELD"],
      ["gone_lookup", "failed", "TOOL_NOT_HELD"],
      ["find_tools", "ok", null],
    ]);
  });

  it("refuses a listing budget past its limit, naming it", async () => {
    const { api, identity } = await agentFor([]);
    await expect(
      api.identities.update({ id: identity.id, listingBudgetBytes: LIMITS.LISTING_BUDGET_MAX_BYTES.value + 1 }),
    ).rejects.toThrow(/LISTING_BUDGET_MAX_BYTES/);
    await expect(api.identities.update({ id: identity.id, exposure: "some" as never })).rejects.toThrow(/exposure/);
    expect((await api.identities.get({ id: identity.id })).listing).toMatchObject({ exposure: "auto", mode: "all" });
  });
});
