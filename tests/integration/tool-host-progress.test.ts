/**
 * Progress of SDK Tool calls (issue 32, item 5; decision 0086): a handler's ctx.progress()
 * reaches an agent that sent a progressToken as notifications/progress on its request's own
 * response stream, at 2025-11-25 and 2026-07-28, from a real SDK host over HTTP to a real
 * MCP client; across two instances on PostgreSQL; and the Tool Host API refuses what a
 * hostile or careless host sends: another host's call, a call it no longer holds, a value
 * that does not increase, reports too close together, an oversized message.
 */
import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import { createToolHost } from "@quartermaster/tool-host";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "@/server/db";
import { LIMITS } from "@/server/limits";
import { startOtherInstance } from "../helpers/instance-process";
import { toolHostWorld } from "../helpers/tool-host-world";

const { url, cleanup, unique, newHostSource, agentFor, databaseUrl } = toolHostWorld("progress");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Seen {
  progress: number;
  total?: number;
  message?: string;
}

/** A host whose Tool reports `steps` steps, `gapMs` apart, then answers; `requests` counts its progress requests. */
async function progressHost(steps: number, gapMs: number) {
  const { source, hostToken } = await newHostSource();
  const requests: string[] = [];
  const host = createToolHost({
    url: url(),
    token: hostToken,
    logger: false,
    fetch: (input, init) => {
      if (String(input).endsWith("/calls/progress")) requests.push(String(init?.body));
      return fetch(input, init);
    },
  });
  cleanup.push(() => host.close({ graceMs: 0 }));
  const name = unique("export_rows");
  host.tool({
    name,
    description: "Exports rows, saying how far it got.",
    input: z.object({}),
    handler: async (_args, ctx) => {
      for (let step = 1; step <= steps; step++) {
        await sleep(gapMs);
        ctx.progress(step, steps, `Exported ${step * 100} of ${steps * 100} rows`);
      }
      await sleep(gapMs);
      return `done: ${steps * 100} rows`;
    },
  });
  await host.serve();
  return { source, hostToken, name, requests };
}

async function callWithProgress(client: Client, name: string) {
  const seen: Seen[] = [];
  const result = (await client.callTool(
    { name, arguments: {} },
    { timeout: 20_000, onprogress: (p) => seen.push(p as Seen) },
  )) as CallToolResult;
  return { seen, result };
}

function expectSteps(seen: Seen[], steps: number) {
  // Each report is at least the interval apart, so none is coalesced away: every step, in order.
  expect(seen.map((s) => s.progress)).toEqual(Array.from({ length: steps }, (_, i) => i + 1));
  expect(seen.every((s) => s.total === steps)).toBe(true);
  expect(seen.at(-1)?.message).toBe(`Exported ${steps * 100} of ${steps * 100} rows`);
}

describe("an SDK Tool's progress", () => {
  it("reaches a 2025-11-25 agent that sent a progressToken as notifications/progress, in order, before the result", async () => {
    const { source, name } = await progressHost(4, 300);
    const { client } = await agentFor(source.id);
    const { seen, result } = await callWithProgress(client, name);
    expect((result.content as { text: string }[])[0]?.text).toBe("done: 400 rows");
    expectSteps(seen, 4);
  });

  it("reaches a 2026-07-28 agent on its request's response stream", async () => {
    const { source, name } = await progressHost(3, 300);
    const { client } = await agentFor(source.id, undefined, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const { seen, result } = await callWithProgress(client, name);
    expect((result.content as { text: string }[])[0]?.text).toBe("done: 300 rows");
    expectSteps(seen, 3);
  });

  it("is coalesced to the latest value when a handler reports faster than the interval, and never goes backwards", async () => {
    const { source, hostToken } = await newHostSource();
    const requests: number[] = [];
    const host = createToolHost({
      url: url(),
      token: hostToken,
      logger: false,
      fetch: (input, init) => {
        if (String(input).endsWith("/calls/progress")) requests.push(Date.now());
        return fetch(input, init);
      },
    });
    cleanup.push(() => host.close({ graceMs: 0 }));
    const name = unique("tight_loop");
    host.tool({
      name,
      description: "Reports in a tight loop.",
      input: z.object({}),
      handler: async (_args, ctx) => {
        for (let i = 1; i <= 2_000; i++) {
          ctx.progress(i, 2_000);
          if (i % 100 === 0) await sleep(50);
        }
        ctx.progress(1); // backwards: dropped by the SDK, never sent
        // Long enough for the last report's turn to come (a report after the result is dropped).
        await sleep(1_500);
        return "ok";
      },
    });
    await host.serve();
    const { client } = await agentFor(source.id);
    const { seen } = await callWithProgress(client, name);
    const values = seen.map((s) => s.progress);
    expect(values.length).toBeGreaterThan(1);
    expect(values.length).toBeLessThan(10);
    expect(values.every((v, i) => i === 0 || v > (values[i - 1] as number))).toBe(true);
    expect(values.at(-1)).toBe(2_000);
    // One request an interval at most, whatever the handler does.
    const gaps = requests.slice(1).map((t, i) => t - (requests[i] as number));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(LIMITS.TOOL_PROGRESS_INTERVAL_MS.value - 20);
  });

  it("costs one request when the agent sent no progressToken: Quartermaster answers unheard and the host stops reporting that call", async () => {
    const { source, name, requests } = await progressHost(5, 300);
    const { client } = await agentFor(source.id);
    const result = (await client.callTool({ name, arguments: {} }, { timeout: 20_000 })) as CallToolResult;
    expect((result.content as { text: string }[])[0]?.text).toBe("done: 500 rows");
    expect(requests).toHaveLength(1);
    const db = await getDb();
    expect(await db.toolCallProgress.count()).toBe(0);
  });
});

/** A host in any language: registered by hand, collecting and reporting over the raw API. */
async function rawHost() {
  const { source, hostToken } = await newHostSource();
  const name = unique("raw_task");
  const api = (path: string, body?: unknown, method = "POST") =>
    fetch(`${url()}/api/v1/tool-hosts${path}`, {
      method,
      headers: { authorization: `Bearer ${hostToken}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  expect(
    (await api("/registration", { tools: [{ name, description: "Raw.", inputSchema: { type: "object" } }] }, "PUT"))
      .status,
  ).toBe(200);
  const collect = async () => {
    const answer = (await (await api("/calls/next?wait=10&max=1")).json()) as { calls: { id: string }[] };
    return answer.calls[0]?.id as string;
  };
  const report = async (reports: unknown[]) => {
    const response = await api("/calls/progress", { reports });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return { source, name, api, collect, report };
}

describe("the Tool Host API's progress endpoint", () => {
  it("takes only increasing reports, one an interval, for calls the host holds running; the agent sees only those", async () => {
    const mine = await rawHost();
    const theirs = await rawHost();
    const { client } = await agentFor(mine.source.id);
    const seen: Seen[] = [];
    const answer = client.callTool(
      { name: mine.name, arguments: {} },
      { timeout: 20_000, onprogress: (p) => seen.push(p as Seen) },
    ) as Promise<CallToolResult>;
    const callId = await mine.collect();
    expect(callId).toBeTruthy();

    // Accepted; a second report of the same call right after it (the same request) is too soon.
    const first = await mine.report([
      { id: callId, progress: 10, total: 100, message: "a tenth" },
      { id: callId, progress: 20 },
    ]);
    expect(first.body).toMatchObject({ accepted: [callId], unheard: [], unknown: [] });
    expect(first.body.refused).toMatchObject([{ id: callId, code: "TOOL_PROGRESS_TOO_FREQUENT" }]);
    expect((first.body.refused as { message: string }[])[0]?.message).toContain("TOOL_PROGRESS_INTERVAL_MS");
    await expect.poll(() => seen.length, { timeout: 3_000 }).toBe(1);

    // Another host's token, and an id never made, are unknown: nothing is said about others' calls.
    expect((await theirs.report([{ id: callId, progress: 50 }])).body).toMatchObject({ unknown: [callId] });
    expect((await mine.report([{ id: "no-such-call", progress: 50 }])).body).toMatchObject({
      unknown: ["no-such-call"],
    });

    // Not increasing.
    await sleep(LIMITS.TOOL_PROGRESS_INTERVAL_MS.value + 50);
    expect((await mine.report([{ id: callId, progress: 5 }])).body).toMatchObject({
      refused: [{ id: callId, code: "TOOL_PROGRESS_NOT_INCREASING" }],
    });
    expect((await mine.report([{ id: callId, progress: 10 }])).body).toMatchObject({
      refused: [{ id: callId, code: "TOOL_PROGRESS_NOT_INCREASING" }],
    });

    // Malformed or oversized reports refuse the request, naming the field and the limit; nothing is kept.
    const long = await mine.report([
      { id: callId, progress: 90, message: "x".repeat(LIMITS.TOOL_PROGRESS_MESSAGE_CHARS.value + 1) },
    ]);
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: "INVALID_INPUT" });
    expect(String(long.body.message)).toContain("message");
    expect(String(long.body.message)).toContain("TOOL_PROGRESS_MESSAGE_CHARS");
    for (const bad of [
      [{ id: callId, progress: -1 }],
      [{ id: callId, progress: "90" }],
      [{ id: callId, progress: 90, total: 0 }],
      [{ id: callId, progress: 90, extra: true }],
      Array.from({ length: LIMITS.TOOL_HOST_PROGRESS_REPORTS.value + 1 }, () => ({ id: callId, progress: 90 })),
      [],
    ])
      expect((await mine.report(bad)).status).toBe(400);

    await sleep(LIMITS.TOOL_PROGRESS_INTERVAL_MS.value + 50);
    expect((await mine.report([{ id: callId, progress: 60, total: 100 }])).body).toMatchObject({ accepted: [callId] });
    await expect.poll(() => seen.length, { timeout: 3_000 }).toBe(2);

    // After the result, the call is no longer held: unknown, and the agent hears nothing more.
    await mine.api("/calls/results", { results: [{ id: callId, output: "finished" }] });
    const result = await answer;
    expect((result.content as { text: string }[])[0]?.text).toBe("finished");
    await sleep(LIMITS.TOOL_PROGRESS_INTERVAL_MS.value + 50);
    expect((await mine.report([{ id: callId, progress: 99 }])).body).toMatchObject({ unknown: [callId] });
    expect(seen).toEqual([
      { progress: 10, total: 100, message: "a tenth" },
      { progress: 60, total: 100 },
    ]);
  });

  it("refuses a body over the request limit before reading it", async () => {
    const mine = await rawHost();
    const big = await mine.api("/calls/progress", { reports: [{ id: "x", progress: 1, message: "y".repeat(70_000) }] });
    expect(big.status).toBe(413);
  });
});

describe("progress across instances", () => {
  it.runIf(process.env.QM_TEST_POSTGRES === "1")(
    "reaches an agent waiting on another instance than the one the host reports to (through the database)",
    { timeout: 120_000 },
    async () => {
      const database = databaseUrl();
      if (!database) throw new Error("no database URL");
      const other = await startOtherInstance(database);
      cleanup.push(other.stop);
      const { source, name } = await progressHost(3, 400);
      // The host reports to this instance; the agent's request waits on the other.
      const { client } = await agentFor(source.id, `${other.url}/mcp`);
      const { seen, result } = await callWithProgress(client, name);
      expect((result.content as { text: string }[])[0]?.text).toBe("done: 300 rows");
      expectSteps(seen, 3);
    },
  );
});
