/**
 * Rate limits per Agent Identity and per Tool: calls a minute and calls at once. A call
 * over a limit is not made; the agent gets an isError result with RATE_LIMITED and when
 * to retry. On PostgreSQL the limits hold across app instances (a second process here).
 */
import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { flushCallLog } from "@/server/domain/calls/recorder";
import { callerFor, makeUser } from "../helpers/actors";
import { checkedSource, type OnCall } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { startOtherInstance } from "../helpers/instance-process";
import { agentFor, callTool, type RpcAnswer } from "../helpers/mcp-agent";
import { mcpRoute } from "../helpers/mcp-route";
import { usePostgres } from "../helpers/template";

const database = withTestDatabase();
const mcp = mcpRoute();
const closers = mcp.closers;

const sourceWith = (names: string[], onCall: OnCall) => checkedSource(closers, names, onCall);

const ok: OnCall = () => ({ content: [{ type: "text", text: "ok" }] });
const code = (a: RpcAnswer) => (a.result?.structuredContent?.error as { code?: string } | undefined)?.code ?? "ok";

/** Minutes are whole minutes on the database's clock: start a test well inside one. */
async function freshMinute() {
  const db = await getDb();
  const [row] = await db.$queryRaw<{ s: number }[]>`SELECT extract(second FROM now())::float AS s`;
  if ((row?.s ?? 0) > 45) await new Promise((resolve) => setTimeout(resolve, (61 - (row?.s ?? 0)) * 1000));
}

/** A Source whose calls wait until released, to hold calls in flight. */
function gate() {
  const waiting: (() => void)[] = [];
  let arrived = 0;
  const onCall: OnCall = () =>
    new Promise((resolve) => {
      arrived++;
      waiting.push(() => resolve({ content: [{ type: "text", text: "done" }] }));
    });
  return {
    onCall,
    arrived: () => arrived,
    release: () => {
      for (const go of waiting.splice(0)) go();
    },
  };
}

async function until(check: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("rate limits", () => {
  it("are set by operators, read by viewers, validated, audited", async () => {
    const { identity } = await agentFor([]);
    const operator = callerFor((await makeUser("operator")).actor);
    const viewer = callerFor((await makeUser("viewer")).actor);
    const subject = { subjectType: "identity" as const, subjectId: identity.id };
    expect(await viewer.rateLimits.get(subject)).toEqual({ perMinute: null, concurrent: null });
    await expect(viewer.rateLimits.set({ ...subject, perMinute: 5, concurrent: null })).rejects.toThrow(/operator/);
    await expect(operator.rateLimits.set({ ...subject, perMinute: 0, concurrent: null })).rejects.toThrow(/perMinute/);
    await expect(
      operator.rateLimits.set({ subjectType: "tool", subjectId: "nope", perMinute: 1, concurrent: null }),
    ).rejects.toThrow(/Tool was not found/);
    await operator.rateLimits.set({ ...subject, perMinute: 5, concurrent: 2 });
    expect(await viewer.rateLimits.get(subject)).toEqual({ perMinute: 5, concurrent: 2 });
    await operator.rateLimits.set({ ...subject, perMinute: null, concurrent: null });
    expect(await viewer.rateLimits.get(subject)).toEqual({ perMinute: null, concurrent: null });
    const audit = await operator.audit.list({ targetId: identity.id, action: "rate_limit" });
    expect(audit.total).toBe(2);
  });

  it("refuse an identity's calls past its calls a minute with RATE_LIMITED and when to retry; a refused call does not count", async () => {
    const { source } = await sourceWith(["ping", "pong"], ok);
    const { identity, token } = await agentFor([source.id]);
    const operator = callerFor((await makeUser("operator")).actor);
    await operator.rateLimits.set({ subjectType: "identity", subjectId: identity.id, perMinute: 3, concurrent: null });
    await freshMinute();
    const answers: RpcAnswer[] = [];
    for (let i = 0; i < 5; i++) answers.push(await callTool(mcp.url, token, i % 2 ? "pong" : "ping", {}));
    // Built-ins count against the identity too.
    answers.push(await callTool(mcp.url, token, "find_tools", { query: "ping" }));
    expect(answers.map(code)).toEqual(["ok", "ok", "ok", "RATE_LIMITED", "RATE_LIMITED", "RATE_LIMITED"]);
    const refused = answers[3]?.result;
    expect(refused?.isError).toBe(true);
    expect(refused?.content[0]?.text).toMatch(
      /^RATE_LIMITED: This Agent Identity may start at most 3 Tool Calls a minute/,
    );
    const error = refused?.structuredContent?.error as Record<string, unknown>;
    expect(error).toMatchObject({ subject: "identity", kind: "per_minute", limit: 3 });
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(Date.parse(String(error.retryAt))).toBeGreaterThan(Date.now() - 1000);
    const db = await getDb();
    const [window] = await db.rateWindow.findMany({ where: { key: `identity:${identity.id}` } });
    expect(window?.count).toBe(3);
    await flushCallLog();
    expect(
      await db.callLog.count({ where: { identityId: identity.id, outcome: "failed", failureCode: "RATE_LIMITED" } }),
    ).toBe(3);
  });

  it("admit exactly a large limit's calls a minute though an instance claims them a share at a time", async () => {
    // 205 a minute: shares of 10, so the last claim has room for only 5 of its 10.
    const { source } = await sourceWith(["tick"], ok);
    const { identity, token } = await agentFor([source.id]);
    const operator = callerFor((await makeUser("operator")).actor);
    await operator.rateLimits.set({
      subjectType: "identity",
      subjectId: identity.id,
      perMinute: 205,
      concurrent: null,
    });
    await freshMinute();
    const answers: RpcAnswer[] = [];
    for (let i = 0; i < 212; i++) answers.push(await callTool(mcp.url, token, "tick", {}));
    expect(answers.filter((a) => code(a) === "ok")).toHaveLength(205);
    expect(answers.slice(205).map(code)).toEqual(Array(7).fill("RATE_LIMITED"));
    // What the database counts is what was admitted: a refused claim was handed back.
    const db = await getDb();
    const [window] = await db.rateWindow.findMany({ where: { key: `identity:${identity.id}` } });
    expect(window?.count).toBe(205);
  });

  it("limit one Tool apart from the identity's other Tools", async () => {
    const { source } = await sourceWith(["costly", "cheap"], ok);
    const { token } = await agentFor([source.id]);
    const db = await getDb();
    const costly = await db.tool.findFirstOrThrow({ where: { sourceId: source.id, nativeName: "costly" } });
    const operator = callerFor((await makeUser("operator")).actor);
    await operator.rateLimits.set({ subjectType: "tool", subjectId: costly.id, perMinute: 1, concurrent: null });
    await freshMinute();
    const names = ["costly", "cheap", "costly", "cheap"];
    const answers = [];
    for (const name of names) answers.push(code(await callTool(mcp.url, token, name, {})));
    expect(answers).toEqual(["ok", "ok", "RATE_LIMITED", "ok"]);
  });

  it("refuse a call past the concurrent calls while others are in flight, and admit one once they end", async () => {
    const held = gate();
    const { source } = await sourceWith(["slow"], held.onCall);
    const { identity, token } = await agentFor([source.id]);
    const operator = callerFor((await makeUser("operator")).actor);
    await operator.rateLimits.set({ subjectType: "identity", subjectId: identity.id, perMinute: null, concurrent: 2 });
    const first = [callTool(mcp.url, token, "slow"), callTool(mcp.url, token, "slow")];
    await until(() => held.arrived() === 2);
    const third = await callTool(mcp.url, token, "slow");
    expect(code(third)).toBe("RATE_LIMITED");
    expect(third.result?.structuredContent?.error).toMatchObject({ kind: "concurrent", limit: 2 });
    held.release();
    expect((await Promise.all(first)).map(code)).toEqual(["ok", "ok"]);
    const db = await getDb();
    expect(await db.callLease.count({ where: { key: `identity:${identity.id}` } })).toBe(0);
    const again = callTool(mcp.url, token, "slow");
    await until(() => held.arrived() === 3);
    held.release();
    expect(code(await again)).toBe("ok");
  });

  it.runIf(usePostgres)(
    "hold across two app instances on PostgreSQL: calls a minute and calls at once are shared",
    { timeout: 120_000 },
    async () => {
      const url = database.url();
      if (!url) throw new Error("no database URL");
      const other = await startOtherInstance(url);
      closers.push(other.stop);
      const urls = [mcp.url, `${other.url}/mcp`];

      // Names no other test's Source took: model-facing names are unique across the catalog.
      const { source } = await sourceWith(["ping_shared"], ok);
      const { identity, token } = await agentFor([source.id]);
      const held = gate();
      const slow = await sourceWith(["slow_shared"], held.onCall);
      const second = await agentFor([slow.source.id]);
      const operator = callerFor((await makeUser("operator")).actor);
      await operator.rateLimits.set({
        subjectType: "identity",
        subjectId: identity.id,
        perMinute: 6,
        concurrent: null,
      });
      await operator.rateLimits.set({
        subjectType: "identity",
        subjectId: second.identity.id,
        perMinute: null,
        concurrent: 2,
      });
      // The other instance reads the limits at its first call (then every RATE_LIMIT_CONFIG_MS).
      await freshMinute();
      // Twelve calls at once, half through each instance: exactly six are made.
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => callTool(urls[i % 2] as string, token, "ping_shared")),
      );
      const codes = answers.map(code);
      expect(codes.filter((c) => c === "ok")).toHaveLength(6);
      expect(codes.filter((c) => c === "RATE_LIMITED")).toHaveLength(6);

      // One call in flight on each instance; a third on either is refused.
      const inFlight = [
        callTool(urls[0] as string, second.token, "slow_shared"),
        callTool(urls[1] as string, second.token, "slow_shared"),
      ];
      await until(() => held.arrived() === 2, 30_000);
      expect(code(await callTool(urls[1] as string, second.token, "slow_shared"))).toBe("RATE_LIMITED");
      expect(code(await callTool(urls[0] as string, second.token, "slow_shared"))).toBe("RATE_LIMITED");
      held.release();
      expect((await Promise.all(inFlight)).map(code)).toEqual(["ok", "ok"]);
      await other.stop();
    },
  );
});
