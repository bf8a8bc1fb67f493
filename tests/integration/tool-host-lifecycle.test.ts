/**
 * An SDK Tool Host call's life past the happy path (issue 32, items 3 and 4), with the real
 * SDK (sdk/dist) against the app's own routes over real HTTP and a real MCP client as the
 * agent: per-Tool deadlines, cancellation reaching the handler's signal, and a host that
 * closes or goes silent failing the calls queued for it at once. Each failure's code is
 * read back from the call log.
 */
import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import { createToolHost, RegistrationError, type ToolCallContext } from "@quartermaster/tool-host";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "@/server/db";
import { flushCallLog } from "@/server/domain/calls/recorder";
import { sweepSilentHosts } from "@/server/domain/sources/tool-hosts";
import { LIMITS } from "@/server/limits";
import { operator } from "../helpers/catalog";
import { postMcp } from "../helpers/mcp-rpc";
import { toolHostWorld } from "../helpers/tool-host-world";

const { url, cleanup, unique, newHostSource, agentFor } = toolHostWorld("life");

function sdkHost(hostToken: string) {
  const host = createToolHost({
    url: url(),
    token: hostToken,
    logger: false,
    backoff: { initialMs: 50, maxMs: 400 },
  });
  cleanup.push(() => host.close({ graceMs: 0 }));
  return host;
}

const call = (
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  timeout = 20_000,
  signal?: AbortSignal,
) => client.callTool({ name, arguments: args }, { timeout, ...(signal ? { signal } : {}) }) as Promise<CallToolResult>;
const errorCode = (result: CallToolResult) =>
  (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;

async function callLog(identityId: string) {
  await flushCallLog();
  const db = await getDb();
  return db.callLog.findMany({ where: { identityId }, orderBy: { startedAt: "asc" } });
}

/** A handler that runs until its signal aborts, remembering when and why. */
function untilAborted() {
  const seen: { context?: ToolCallContext; abortedAt?: number; reason?: string } = {};
  const handler = (_args: unknown, context: ToolCallContext) =>
    new Promise<string>((resolve) => {
      seen.context = context;
      context.signal.addEventListener("abort", () => {
        seen.abortedAt = Date.now();
        seen.reason = (context.signal.reason as Error)?.message;
        resolve("too late");
      });
    });
  return { seen, handler };
}

describe("an SDK Tool's deadline", () => {
  it("is the Tool's own timeoutSeconds: the agent is told TOOL_CALL_TIMEOUT then, long before its client gives up", async () => {
    const { source, hostToken } = await newHostSource();
    const host = sdkHost(hostToken);
    const slow = unique("slow_export");
    const { seen, handler } = untilAborted();
    host.tool({ name: slow, description: "Never finishes in time.", input: z.object({}), timeoutSeconds: 2, handler });
    await host.serve();
    const db = await getDb();
    expect(
      (await db.tool.findFirstOrThrow({ where: { sourceId: source.id, nativeName: slow } })).callTimeoutSeconds,
    ).toBe(2);

    const { client, identityId } = await agentFor(source.id);
    const t0 = Date.now();
    const result = await call(client, slow, {}, 15_000);
    const took = Date.now() - t0;
    expect(errorCode(result)).toBe("TOOL_CALL_TIMEOUT");
    // Bounds far from the 50 s default, not the 2 s itself: a loaded machine adds seconds of its own.
    expect(took).toBeGreaterThanOrEqual(1_900);
    expect(took).toBeLessThan(10_000);
    // ctx.deadline is a Date, the Tool's deadline; the handler is stopped at it.
    expect(seen.context?.deadline).toBeInstanceOf(Date);
    expect(seen.context!.deadline.getTime() - t0).toBeLessThan(10_000);
    await expect.poll(() => seen.abortedAt, { timeout: 3_000 }).toBeDefined();
    expect((await callLog(identityId)).map((r) => [r.toolName, r.outcome, r.failureCode])).toEqual([
      [slow, "failed", "TOOL_CALL_TIMEOUT"],
    ]);
  });

  it("defaults to 50 s, under the 60 s MCP clients wait by default, for a Tool that declares none", async () => {
    const { source, hostToken } = await newHostSource();
    const host = sdkHost(hostToken);
    const quick = unique("quick");
    let deadline: Date | undefined;
    host.tool({
      name: quick,
      description: "Says when it must be done.",
      input: z.object({}),
      handler: (_args, context) => {
        deadline = context.deadline;
        return "ok";
      },
    });
    await host.serve();
    const { client } = await agentFor(source.id);
    const t0 = Date.now();
    await call(client, quick);
    expect(LIMITS.TOOL_CALL_TIMEOUT_DEFAULT_SECONDS).toMatchObject({ value: 50, class: "setting" });
    const left = (deadline?.getTime() ?? 0) - t0;
    expect(left).toBeGreaterThan(45_000);
    expect(left).toBeLessThanOrEqual(51_000);
  });

  it("above the release's ceiling is refused by host.tool() and by the server, naming the limit", async () => {
    const { source, hostToken } = await newHostSource();
    const host = sdkHost(hostToken);
    const ceiling = LIMITS.TOOL_CALL_TIMEOUT_MAX_SECONDS;
    expect(ceiling).toMatchObject({ value: 300, class: "setting" });
    const define = (timeoutSeconds: number) => () =>
      host.tool({
        name: unique("too_patient"),
        description: "x",
        input: z.object({}),
        timeoutSeconds,
        handler: () => "",
      });
    for (const bad of [301, 0, 1.5]) {
      let refused: unknown;
      try {
        define(bad)();
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(RegistrationError);
      expect(refused).toMatchObject({ code: "TOOL_TIMEOUT_INVALID", status: 422, local: true });
      expect((refused as Error).message).toContain("TOOL_CALL_TIMEOUT_MAX_SECONDS");
      expect((refused as Error).message).toContain("from 1 to 300");
    }

    // A host in another language meets the same rule from the server: the registration changes nothing.
    const register = (timeoutSeconds: unknown) =>
      fetch(`${url()}/api/v1/tool-hosts/registration`, {
        method: "PUT",
        headers: { authorization: `Bearer ${hostToken}`, "content-type": "application/json" },
        body: JSON.stringify({
          tools: [{ name: "patient", description: "x", inputSchema: { type: "object" }, timeoutSeconds }],
        }),
      });
    const refused = await register(900);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({
      code: "TOOL_TIMEOUT_INVALID",
      details: { tool: "patient", field: "timeoutSeconds", measured: 900, limit: 300, unit: "seconds" },
    });
    expect((await register("60")).status).toBe(422);
    const db = await getDb();
    expect(await db.tool.count({ where: { sourceId: source.id } })).toBe(0);

    // Within it, the deadline is stored beside the definition, and changing it alone needs no new review.
    expect((await register(300)).status).toBe(200);
    const before = await db.tool.findFirstOrThrow({ where: { sourceId: source.id, nativeName: "patient" } });
    expect(before.callTimeoutSeconds).toBe(300);
    const again = await register(20);
    expect(await again.json()).toMatchObject({ changed: 0, incompatible: [] });
    const after = await db.tool.findFirstOrThrow({ where: { sourceId: source.id, nativeName: "patient" } });
    expect([after.callTimeoutSeconds, after.definitionHash]).toEqual([20, before.definitionHash]);
  });
});

/** Resolves once `count` calls for the Source wait in Quartermaster with `status`. */
async function queued(sourceId: string, count: number, status: "pending" | "delivered" = "pending") {
  const db = await getDb();
  await expect.poll(() => db.toolCall.count({ where: { sourceId, status } }), { timeout: 10_000 }).toBe(count);
}

describe("an SDK Tool Host going offline", () => {
  it("close() says goodbye: a call queued for the host fails at once with TOOL_HOST_OFFLINE, and one made afterwards finds the Tool withdrawn", async () => {
    const { source, hostToken } = await newHostSource();
    const host = createToolHost({ url: url(), token: hostToken, logger: false, concurrency: 1 });
    cleanup.push(() => host.close({ graceMs: 0 }));
    const busy = unique("busy");
    const { seen, handler } = untilAborted();
    host.tool({ name: busy, description: "Holds the host's one worker.", input: z.object({ i: z.number() }), handler });
    await host.serve();
    const { client, identityId } = await agentFor(source.id);
    const first = call(client, busy, { i: 1 });
    await expect.poll(() => seen.context, { timeout: 10_000 }).toBeDefined();
    // The host's one worker is busy, so this one waits in Quartermaster, never handed over.
    const second = call(client, busy, { i: 2 });
    await queued(source.id, 1);

    const t0 = Date.now();
    await host.close({ graceMs: 100 });
    const [running, waiting] = await Promise.all([first, second]);
    expect(Date.now() - t0).toBeLessThan(3_000);
    expect(running.isError).toBe(true);
    expect(errorCode(waiting)).toBe("TOOL_HOST_OFFLINE");
    expect((waiting.content as { text: string }[])[0]?.text).toContain("did not run");

    const db = await getDb();
    const closed = await db.source.findUniqueOrThrow({ where: { id: source.id } });
    expect(closed.hostSilentSince).not.toBeNull();
    expect(await db.auditEvent.count({ where: { action: "source.host_closed", targetId: source.id } })).toBe(1);
    const later = await call(client, busy, { i: 3 });
    expect(errorCode(later)).toBe("TOOL_NOT_HELD");
    // The agent, and the identity's Lost recently, are told the host shut down, not that it went silent.
    expect((later.content as { text: string }[])[0]?.text).toContain("its SDK Tool Host shut down (it said goodbye)");
    expect((later.content as { text: string }[])[0]?.text).not.toContain("went silent");
    expect((await callLog(identityId)).map((r) => r.failureCode)).toEqual([null, "TOOL_HOST_OFFLINE", "TOOL_NOT_HELD"]);
    const losses = await (await operator()).identities.losses({ id: identityId, include: "losses" });
    expect(losses.items.map((i) => [i.nativeName, i.reason, i.detail, i.reasonText])).toEqual([
      [busy, "withdrawn", "host_closed", "Its SDK Tool Host shut down (it said goodbye)"],
    ]);
  });

  it("leaves the Tools offered when another process serving with the same token is still there", async () => {
    const { source, hostToken } = await newHostSource();
    const name = unique("replicated");
    const replica = (label: string) =>
      sdkHost(hostToken).tool({ name, description: "Served twice.", input: z.object({}), handler: () => label });
    const leaving = replica("leaving");
    const staying = replica("staying");
    await leaving.serve();
    await staying.serve();
    await leaving.close();
    const db = await getDb();
    expect((await db.source.findUniqueOrThrow({ where: { id: source.id } })).hostSilentSince).toBeNull();
    const { client } = await agentFor(source.id);
    const result = await call(client, name);
    expect([result.isError, (result.content as { text: string }[])[0]?.text]).toEqual([undefined, "staying"]);
    // The last one out takes the Tools with it.
    await staying.close();
    expect((await db.source.findUniqueOrThrow({ where: { id: source.id } })).hostSilentSince).not.toBeNull();
  });

  it("fails the calls queued for a host whose Tools are withdrawn at its heartbeat timeout at once, with TOOL_HOST_OFFLINE", async () => {
    const { source, hostToken } = await newHostSource(15);
    const name = unique("forgotten");
    // A host in any language that registered, then fell silent without collecting.
    const registered = await fetch(`${url()}/api/v1/tool-hosts/registration`, {
      method: "PUT",
      headers: { authorization: `Bearer ${hostToken}`, "content-type": "application/json" },
      body: JSON.stringify({ tools: [{ name, description: "Never collected.", inputSchema: { type: "object" } }] }),
    });
    expect(registered.status).toBe(200);
    const { client, identityId } = await agentFor(source.id);
    const waiting = call(client, name);
    await queued(source.id, 1);
    const db = await getDb();
    await db.source.update({ where: { id: source.id }, data: { lastHeartbeatAt: new Date(Date.now() - 60_000) } });
    expect(await sweepSilentHosts()).toContain(source.id);
    const t0 = Date.now();
    const result = await waiting;
    expect(Date.now() - t0).toBeLessThan(1_500);
    expect(errorCode(result)).toBe("TOOL_HOST_OFFLINE");
    expect((await callLog(identityId)).map((r) => [r.toolName, r.failureCode])).toEqual([[name, "TOOL_HOST_OFFLINE"]]);
    // Silence, unlike a goodbye, reads as silence.
    const losses = await (await operator()).identities.losses({ id: identityId, include: "losses" });
    expect(losses.items.map((i) => [i.reason, i.detail, i.reasonText])).toEqual([
      ["withdrawn", null, "Its SDK Tool Host went silent"],
    ]);
  });
});

const LEGACY = { "mcp-protocol-version": "2025-11-25" };
/** tools/call as its own POST, left open; `signal` hangs up on it. */
function postCall(token: string, id: number | string, name: string, signal?: AbortSignal) {
  return fetch(`${url()}/mcp`, {
    method: "POST",
    signal,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...LEGACY,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } }),
  });
}
/** notifications/cancelled as a stateless client sends it: a POST of its own. */
const postCancel = (token: string, requestId: number | string) =>
  postMcp(
    `${url()}/mcp`,
    token,
    { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "the user gave up" } },
    LEGACY,
  );

/** A host serving one Tool whose handler runs until aborted; resolves once that Tool is served. */
async function cancellableHost() {
  const { source, hostToken } = await newHostSource();
  const host = sdkHost(hostToken);
  const name = unique("long_task");
  const { seen, handler } = untilAborted();
  host.tool({ name, description: "Runs until stopped.", input: z.object({}), handler });
  await host.serve();
  return { source, host, hostToken, name, seen };
}

describe("an agent's cancellation of an SDK Tool call", () => {
  it("reaches the handler's signal within a second when sent as a notifications/cancelled POST of its own, and the call log says TOOL_CALL_CANCELLED", async () => {
    const { source, name, seen } = await cancellableHost();
    const { token, identityId } = await agentFor(source.id);
    const answer = postCall(token, 41, name);
    await expect.poll(() => seen.context, { timeout: 10_000 }).toBeDefined();
    const sent = Date.now();
    expect((await postCancel(token, 41)).status).toBe(202);
    await expect.poll(() => seen.abortedAt, { timeout: 1_000, interval: 20 }).toBeDefined();
    expect(seen.abortedAt! - sent).toBeLessThan(1_000);
    expect(seen.reason).toBe("The agent cancelled this call.");
    const body = (await (await answer).json()) as { result: CallToolResult };
    expect(errorCode(body.result)).toBe("TOOL_CALL_CANCELLED");
    expect((await callLog(identityId)).map((r) => [r.toolName, r.failureCode])).toEqual([
      [name, "TOOL_CALL_CANCELLED"],
    ]);
    // The cancelled call's late result is not taken, and nothing is left for a collection.
    const db = await getDb();
    expect(await db.toolCall.count({ where: { sourceId: source.id, status: { in: ["pending", "delivered"] } } })).toBe(
      0,
    );
  });

  // A 2026-07-28 client cancels by closing the call's own request stream, not by a notification.
  it("reaches the handler's signal within a second when the agent's MCP client aborts the call", async () => {
    const { source, name, seen } = await cancellableHost();
    const { client } = await agentFor(source.id);
    const controller = new AbortController();
    const answer = call(client, name, {}, 20_000, controller.signal);
    await expect.poll(() => seen.context, { timeout: 10_000 }).toBeDefined();
    const sent = Date.now();
    controller.abort(new Error("the user pressed stop"));
    await expect(answer).rejects.toThrow();
    await expect.poll(() => seen.abortedAt, { timeout: 1_000, interval: 20 }).toBeDefined();
    expect(seen.abortedAt! - sent).toBeLessThan(1_000);
  });

  it("reaches the handler's signal within a second when the agent hangs up", async () => {
    const { source, name, seen } = await cancellableHost();
    const { token, identityId } = await agentFor(source.id);
    const hangUp = new AbortController();
    const answer = postCall(token, 7, name, hangUp.signal).catch((error: unknown) => error);
    await expect.poll(() => seen.context, { timeout: 10_000 }).toBeDefined();
    const sent = Date.now();
    hangUp.abort();
    await answer;
    await expect.poll(() => seen.abortedAt, { timeout: 1_000, interval: 20 }).toBeDefined();
    expect(seen.abortedAt! - sent).toBeLessThan(1_000);
    await expect
      .poll(async () => (await callLog(identityId)).map((r) => r.failureCode), { timeout: 3_000 })
      .toEqual(["TOOL_CALL_CANCELLED"]);
  });

  it("is ignored for a request id the agent has not made, or one another Agent Identity's token made", async () => {
    const { source, hostToken, name, seen } = await cancellableHost();
    const owner = await agentFor(source.id);
    const stranger = await agentFor(source.id);
    const answer = postCall(owner.token, "job-1", name);
    await expect.poll(() => seen.context, { timeout: 10_000 }).toBeDefined();
    expect((await postCancel(stranger.token, "job-1")).status).toBe(202);
    expect((await postCancel(owner.token, "job-2")).status).toBe(202);
    expect((await postCancel(owner.token, 1)).status).toBe(202);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(seen.abortedAt).toBeUndefined();

    // A host asking about a call it does not hold is never told of it; a malformed question is refused.
    const other = await newHostSource();
    const ask = (token: string, body: unknown) =>
      fetch(`${url()}/api/v1/tool-hosts/calls/cancelled?wait=0`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const callId = seen.context!.callId;
    expect((await postCancel(owner.token, "job-1")).status).toBe(202);
    await expect.poll(() => seen.abortedAt, { timeout: 1_000, interval: 20 }).toBeDefined();
    expect(await (await ask(other.hostToken, { ids: [callId] })).json()).toEqual({ cancelled: [] });
    expect(await (await ask(hostToken, { ids: [callId] })).json()).toEqual({ cancelled: [callId] });
    const refused = await ask(hostToken, { ids: [] });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: "INVALID_INPUT" });
    expect(errorCode(((await (await answer).json()) as { result: CallToolResult }).result)).toBe("TOOL_CALL_CANCELLED");
  });
});
