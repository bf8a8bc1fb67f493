import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { callHostTool, collectHostCalls, sweepAbandonedCalls } from "@/server/domain/agent-tools/host-calls";
import { callRemoteTool } from "@/server/domain/agent-tools/remote-call";
import { DomainError } from "@/server/errors";
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
      sourceId: "stall-source",
      url: server.url,
      headers: {},
      allowLinkLocal: false,
      nativeName: "stall",
      arguments: {},
      timeoutMs: 500,
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DomainError);
    expect(failure).toMatchObject({ code: "TOOL_CALL_TIMEOUT", details: { limit: 500 } });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("are refused before connecting when a Connection's URL is a blocked address literal", async () => {
    // The guarded resolver never sees a literal, so this must be refused before any connection.
    const failure = await callRemoteTool({
      sourceId: "blocked-source",
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

  it("go back to wait for the next collection when the host hangs up while they are handed over", async () => {
    const { source, host } = await hostWith([simpleTool("handover")]);
    const db = await getDb();
    const waiting = await db.toolCall.create({
      data: { sourceId: source.id, nativeName: "handover", arguments: "{}", deadline: new Date(Date.now() + 60_000) },
    });
    // The collection's request was abandoned (the host closing, its connection cut): nobody would read the answer.
    expect(await collectHostCalls(host, 0, AbortSignal.abort())).toEqual([]);
    expect(await db.toolCall.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({
      status: "pending",
      deliveredAt: null,
    });
    expect((await collectHostCalls(host, 0)).map((c) => c.id)).toEqual([waiting.id]);
  });

  it("are handed over at most `max` at a time, oldest first, so a busy host takes only what it can start", async () => {
    const { source, host } = await hostWith([simpleTool("batch")]);
    const db = await getDb();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (
          await db.toolCall.create({
            data: {
              sourceId: source.id,
              nativeName: "batch",
              arguments: JSON.stringify({ i }),
              deadline: new Date(Date.now() + 60_000),
              createdAt: new Date(Date.now() - 1000 + i),
            },
          })
        ).id,
      );
    const handed = async () => (await collectHostCalls(host, 0, undefined, 2)).map((c) => c.id).sort();
    expect(await handed()).toEqual(ids.slice(0, 2).sort());
    expect(await handed()).toEqual(ids.slice(2));
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
