import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { ToolCallFailure } from "@/server/domain/agent-tools/failures";
import { callHostTool, collectHostCalls, sweepAbandonedCalls } from "@/server/domain/agent-tools/host-calls";
import { callRemoteTool } from "@/server/domain/agent-tools/remote-call";
import { LIMITS } from "@/server/limits";
import { withTestDatabase } from "../helpers/db";
import { hostWith } from "../helpers/hosts";
import { type RunningServer, simpleTool, startSdkServer } from "../helpers/mcp-servers";

withTestDatabase();
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe("Tool Calls that never get an answer", () => {
  it("end with TOOL_CALL_TIMEOUT when an MCP Connection's server does not answer in time", async () => {
    const server = await startSdkServer({ catalog: () => [simpleTool("stall")], onCall: () => new Promise(() => {}) });
    servers.push(server);
    const started = Date.now();
    const failure = await callRemoteTool({
      url: server.url,
      headers: {},
      allowLinkLocal: false,
      nativeName: "stall",
      arguments: {},
      timeoutMs: 500,
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ToolCallFailure);
    expect(failure).toMatchObject({ code: "TOOL_CALL_TIMEOUT", details: { limit: 500 } });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("are refused before connecting when a Connection's URL is a blocked address literal", async () => {
    // The guarded resolver never sees a literal, so this must be refused before any connection.
    const failure = await callRemoteTool({
      url: "http://169.254.169.254/mcp",
      headers: {},
      allowLinkLocal: false,
      nativeName: "steal_credentials",
      arguments: {},
      timeoutMs: 2000,
    }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "SOURCE_ADDRESS_BLOCKED" });
    expect((failure as Error).message).toContain("169.254.169.254");
  });

  it("end with TOOL_CALL_TIMEOUT when no SDK Tool Host collects them, and leave nothing for a later collection", async () => {
    const { source, host } = await hostWith([simpleTool("never")]);
    const failure = await callHostTool({
      sourceId: source.id,
      nativeName: "never",
      arguments: { q: 1 },
      limitMs: 500,
    }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "TOOL_CALL_TIMEOUT" });
    const db = await getDb();
    expect(await db.toolCall.count({ where: { sourceId: source.id } })).toBe(0);
    expect(await collectHostCalls(host, 0)).toEqual([]);
  });

  it("are swept once their caller is long gone, and only then", async () => {
    const { source } = await hostWith([simpleTool("orphan")]);
    const db = await getDb();
    const now = new Date();
    const row = (deadline: Date) => ({ sourceId: source.id, nativeName: "orphan", arguments: "{}", deadline });
    await db.toolCall.createMany({
      data: [row(new Date(now.getTime() - LIMITS.TOOL_CALL_MS.value - 1000)), row(new Date(now.getTime() - 1000))],
    });
    expect(await sweepAbandonedCalls(now)).toBe(1);
    expect(await db.toolCall.count({ where: { sourceId: source.id } })).toBe(1);
  });
});
