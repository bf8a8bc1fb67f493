/**
 * The call log: every Tool Call through /mcp leaves one row — who, which Tool of which
 * Source, when, how long, how it ended, how large — written in batches after the call,
 * with no argument or result unless an admin turned capture on; rows go after the
 * retention, captured payloads after theirs.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { answered, failedResult } from "@/server/domain/agent-tools/result";
import { observeToolCall } from "@/server/domain/calls/observe";
import { flushCallLog, pendingCallLogRows } from "@/server/domain/calls/recorder";
import { sweepCallLog } from "@/server/domain/calls/sweeper";
import { DomainError, TOOL_CALL_FAILURE_CODES, type ToolCallFailureCode } from "@/server/errors";
import { callerFor, makeUser } from "../helpers/actors";
import { checkedSource, type OnCall } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { agentFor, callTool } from "../helpers/mcp-agent";
import { mcpRoute } from "../helpers/mcp-route";

withTestDatabase();
const mcp = mcpRoute();
const closers = mcp.closers;

const sourceWith = (names: string[], onCall: OnCall) => checkedSource(closers, names, onCall);

async function rowsOf(identityId: string) {
  await flushCallLog();
  const db = await getDb();
  return db.callLog.findMany({ where: { identityId }, orderBy: { startedAt: "asc" } });
}

describe("the call log", () => {
  it("records ok, isError and failed calls with identity, token, Tool, Source, duration and sizes — and no payload", async () => {
    const { source } = await sourceWith(["lookup", "refuse", "flood"], (name, args) => {
      if (name === "refuse") return { content: [{ type: "text", text: "no such customer" }], isError: true };
      if (name === "flood") return { content: Array.from({ length: 40 }, (_, i) => ({ type: "text", text: `${i}` })) };
      return { content: [{ type: "text", text: `found ${JSON.stringify(args)}` }] };
    });
    const { identity, token, tokenId } = await agentFor([source.id]);
    const db = await getDb();
    const tool = await db.tool.findFirstOrThrow({ where: { sourceId: source.id, nativeName: "lookup" } });

    expect((await callTool(mcp.url, token, "lookup", { q: "secret-argument" })).result?.isError).toBeUndefined();
    expect((await callTool(mcp.url, token, "refuse", {})).result?.isError).toBe(true);
    const flood = await callTool(mcp.url, token, "flood", {});
    expect(flood.result?.structuredContent?.error).toMatchObject({ code: "TOOL_RESULT_TOO_MANY_TEXT_BLOCKS" });
    const missing = await callTool(mcp.url, token, "no_such_tool", {});
    expect(missing.error?.data).toMatchObject({ code: "NOT_FOUND" });
    await callTool(mcp.url, token, "find_tools", { query: "lookup" });

    const rows = await rowsOf(identity.id);
    expect(rows.map((r) => [r.toolName, r.outcome, r.failureCode])).toEqual([
      ["lookup", "ok", null],
      ["refuse", "is_error", null],
      ["flood", "failed", "TOOL_RESULT_TOO_MANY_TEXT_BLOCKS"],
      ["no_such_tool", "failed", "NOT_FOUND"],
      ["find_tools", "ok", null],
    ]);
    const [lookup] = rows;
    expect(lookup).toMatchObject({
      identityId: identity.id,
      identityName: identity.name,
      tokenId,
      toolId: tool.id,
      nativeName: "lookup",
      sourceId: source.id,
      sourceName: source.name,
      builtIn: false,
      bytesIn: Buffer.byteLength(JSON.stringify({ q: "secret-argument" })),
      arguments: null,
      result: null,
      payloadExpiresAt: null,
    });
    expect(lookup?.bytesOut).toBeGreaterThan(20);
    expect(lookup?.durationMs).toBeGreaterThanOrEqual(0);
    expect(rows.find((r) => r.toolName === "find_tools")).toMatchObject({ builtIn: true, sourceId: null });
    // Payload capture is off by default: no argument value is anywhere in the log.
    const all = JSON.stringify(await db.callLog.findMany());
    expect(all).not.toContain("secret-argument");
  });

  it("records every Tool Call failure code, and a refusal's code, as a failed call", async () => {
    const { identity, token } = await agentFor([]);
    const actor = { kind: "agent" as const, identityId: identity.id, tokenId: "t", label: "agent" };
    const codes = Object.keys(TOOL_CALL_FAILURE_CODES) as ToolCallFailureCode[];
    for (const code of codes)
      await observeToolCall(actor, { name: `tool_${code}` }, async () => failedResult(new DomainError(code, "failed")));
    for (const code of ["INVALID_INPUT", "IDENTITY_OVER_BUDGET"] as const)
      await observeToolCall(actor, { name: `tool_${code}` }, async () => {
        throw new DomainError(code, "refused");
      }).catch(() => {});
    const rows = await rowsOf(identity.id);
    expect(rows.map((r) => [r.toolName, r.outcome, r.failureCode]).sort()).toEqual(
      [...codes, "INVALID_INPUT", "IDENTITY_OVER_BUDGET"].map((c) => [`tool_${c}`, "failed", c]).sort(),
    );
    expect(token).toBeTruthy();
  });

  it("writes in batches after the call, so a call waits for no insert", async () => {
    const { identity } = await agentFor([]);
    const actor = { kind: "agent" as const, identityId: identity.id, tokenId: "t", label: "agent" };
    await flushCallLog();
    await observeToolCall(actor, { name: "find_tools" }, async () => answered({ content: [] }));
    expect(pendingCallLogRows()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(pendingCallLogRows()).toBe(0);
    expect((await rowsOf(identity.id)).length).toBe(1);
  });

  it("keeps payloads only while an admin has capture on, for the capture's retention", async () => {
    const { source } = await sourceWith(["echo"], (_n, args) => ({
      content: [{ type: "text", text: JSON.stringify(args) }],
    }));
    const { identity, token } = await agentFor([source.id]);
    const admin = callerFor((await makeUser("admin")).actor);
    const operatorApi = callerFor((await makeUser("operator")).actor);
    await expect(operatorApi.calls.setCapture({ identityId: identity.id, retentionDays: 7 })).rejects.toThrow(/admin/);
    expect(await admin.calls.capture({ identityId: identity.id })).toMatchObject({ enabled: false });

    await admin.calls.setCapture({ identityId: identity.id, retentionDays: 7 });
    await callTool(mcp.url, token, "echo", { note: "kept-for-a-week" });
    let [row] = await rowsOf(identity.id);
    expect(row?.arguments).toContain("kept-for-a-week");
    expect(row?.result).toContain("kept-for-a-week");
    expect(row?.payloadExpiresAt?.getTime()).toBeCloseTo((row?.startedAt.getTime() ?? 0) + 7 * 86_400_000, -3);
    // Admins read payloads; others see that there is one.
    expect((await admin.calls.get({ id: row?.id ?? "" })).arguments).toContain("kept-for-a-week");
    expect((await operatorApi.calls.get({ id: row?.id ?? "" })).arguments).toBeNull();

    // The payload goes when its retention ends, the row stays.
    await sweepCallLog(new Date(Date.now() + 8 * 86_400_000));
    [row] = await rowsOf(identity.id);
    expect(row).toMatchObject({ arguments: null, result: null, payloadExpiresAt: null });

    // Turning capture off removes what was captured at once.
    await callTool(mcp.url, token, "echo", { note: "second" });
    await flushCallLog();
    await admin.calls.setCapture({ identityId: identity.id, retentionDays: null });
    const rows = await rowsOf(identity.id);
    expect(rows.every((r) => r.arguments === null && r.result === null)).toBe(true);
    const audit = await admin.audit.list({ targetId: identity.id, targetType: "identity" });
    expect(audit.items.map((e) => e.action)).toEqual(
      expect.arrayContaining(["call_log.capture_on", "call_log.capture_off"]),
    );
  });

  it("sweeps rows past the retention (30 days unless an admin sets it) and keeps the rest", async () => {
    const { identity } = await agentFor([]);
    const db = await getDb();
    const day = 86_400_000;
    const row = (ageDays: number) => ({
      startedAt: new Date(Date.now() - ageDays * day),
      durationMs: 1,
      identityId: identity.id,
      identityName: identity.name,
      toolName: `aged_${ageDays}`,
      outcome: "ok" as const,
      bytesIn: 2,
      bytesOut: 2,
    });
    await db.callLog.createMany({ data: [row(1), row(29), row(31), row(90)] });
    const admin = callerFor((await makeUser("admin")).actor);
    expect(await admin.calls.settings()).toEqual({ retentionDays: 30 });
    await sweepCallLog();
    let names = (await rowsOf(identity.id)).map((r) => r.toolName).sort();
    expect(names).toEqual(["aged_1", "aged_29"]);

    await expect(admin.calls.setSettings({ retentionDays: 0 })).rejects.toThrow(/retentionDays/);
    await admin.calls.setSettings({ retentionDays: 7 });
    await sweepCallLog();
    names = (await rowsOf(identity.id)).map((r) => r.toolName);
    expect(names).toEqual(["aged_1"]);
    await admin.calls.setSettings({ retentionDays: 30 });
  });

  it("lists calls newest first with filters, a total and stats per identity, Source and Tool", async () => {
    const { source } = await sourceWith(["a_tool", "b_tool"], (name) =>
      name === "b_tool"
        ? { content: [{ type: "text", text: "nope" }], isError: true }
        : { content: [{ type: "text", text: "ok" }] },
    );
    const { identity, token } = await agentFor([source.id]);
    for (let i = 0; i < 3; i++) await callTool(mcp.url, token, "a_tool", { i });
    await callTool(mcp.url, token, "b_tool", {});
    await flushCallLog();
    const viewer = callerFor((await makeUser("viewer")).actor);
    const all = await viewer.calls.list({ identityId: identity.id });
    expect(all.total).toBe(4);
    expect(all.items[0]?.toolName).toBe("b_tool");
    expect(all.items[0]).not.toHaveProperty("arguments");
    // An agent's own calls through /mcp are not marked as tried from the console.
    expect(all.items.map((c) => c.tried)).toEqual([false, false, false, false]);
    const errors = await viewer.calls.list({ identityId: identity.id, outcome: "is_error" });
    expect(errors.total).toBe(1);
    const paged = await viewer.calls.list({ identityId: identity.id, limit: 2, cursor: "o2" });
    expect(paged.items.map((r) => r.id)).toEqual(all.items.slice(2).map((r) => r.id));

    const stats = await viewer.calls.stats({ subject: "identity", id: identity.id });
    expect(stats).toMatchObject({ calls: 4, isError: 1, failed: 0, errorRate: 0.25 });
    expect(stats.p50Ms).not.toBeNull();
    expect(stats.perDay).toHaveLength(14);
    expect(stats.perDay.at(-1)).toMatchObject({ day: new Date().toISOString().slice(0, 10), calls: 4, isError: 1 });
    expect(stats.perDay.slice(0, -1).every((d) => d.calls === 0)).toBe(true);
    const bySource = await viewer.calls.stats({ subject: "source", id: source.id });
    expect(bySource.calls).toBe(4);
    const db = await getDb();
    const bTool = await db.tool.findFirstOrThrow({ where: { sourceId: source.id, nativeName: "b_tool" } });
    expect((await viewer.calls.stats({ subject: "tool", id: bTool.id })).isError).toBe(1);
  });
});
