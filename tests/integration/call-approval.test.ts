/**
 * `approve` call policies over real HTTP: an agent's call (the SDK's v2 client at 2026-07-28,
 * against a real SDK Source on loopback) is parked with APPROVAL_PENDING and reaches nothing;
 * approvers see it with secrets redacted; an approval lets the agent's retry run it exactly
 * once, a denial answers the retry with APPROVAL_DENIED and the reason; every decision is in
 * the audit log and every call in the call log.
 */
import { type CallToolResult, Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { flushCallLog } from "@/server/domain/calls/recorder";
import { handleMcpOther, handleMcpPost } from "@/server/mcp/handler";
import { callerFor, makeUser } from "../helpers/actors";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { simpleTool, startSdkServer } from "../helpers/mcp-servers";
import { serveHandler } from "../helpers/web-handler";

withTestDatabase();
const closers: (() => Promise<void>)[] = [];
let mcpUrl = "";
const calls: { name: string; args: Record<string, unknown> }[] = [];
let sourceId = "";
let api: Awaited<ReturnType<typeof connectionTo>>["api"];
let approver: ReturnType<typeof callerFor>;

beforeAll(async () => {
  const served = await serveHandler({ POST: handleMcpPost, GET: handleMcpOther }, "/mcp");
  mcpUrl = served.url;
  closers.push(served.close);
  const server = await startSdkServer({
    catalog: () => [
      simpleTool("refund", { inputSchema: { type: "object", properties: { query: {}, apiToken: {} } } }),
      simpleTool("balance"),
    ],
    onCall: (name, args) => {
      calls.push({ name, args });
      return { content: [{ type: "text", text: `done ${name} ${JSON.stringify(args)}` }] };
    },
  });
  closers.push(server.close);
  const connection = await connectionTo(server.url, { name: `payments-${Date.now()}` });
  api = connection.api;
  sourceId = connection.source.id;
  expect((await api.sources.checkNow({ id: sourceId })).status).toBe("succeeded");
  // The whole Source needs approval, but one of its Tools is set to none: the Tool's wins.
  await api.sources.setCallPolicy({ sourceId, policy: "approve" });
  const db = await getDb();
  const balance = await db.tool.findFirstOrThrow({ where: { sourceId, nativeName: "balance" } });
  await api.catalog.setCallPolicy({ toolId: balance.id, policy: "none" });
  approver = callerFor((await makeUser("approver")).actor);
});
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

let k = 0;
async function agent() {
  const identity = await api.identities.create({ name: `approval-agent-${++k}-${Date.now()}` });
  await api.identities.assignSource({ identityId: identity.id, sourceId });
  const { value } = await api.identities.createToken({ identityId: identity.id, name: "t" });
  const client = new Client(
    { name: "approval-test", version: "1" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${value}` } },
    }),
  );
  closers.push(() => client.close());
  return { identity, client };
}

const error = (r: unknown) =>
  ((r as CallToolResult).structuredContent as { error?: Record<string, unknown> } | undefined)?.error;
const refunds = () => calls.filter((c) => c.name === "refund").length;

describe("a Tool under approve", () => {
  it("is parked, shown to approvers with secrets redacted, and runs exactly once on the retry after approval", async () => {
    const { identity, client } = await agent();
    const args = { query: "order-1", apiToken: "s3cret-value" };
    const before = refunds();
    const first = await client.callTool({ name: "refund", arguments: args });
    expect(first.isError).toBe(true);
    expect(error(first)).toMatchObject({ code: "APPROVAL_PENDING", retryAfterMs: 30_000 });
    const approvalId = error(first)?.approvalId as string;
    expect((first.content as { text: string }[])[0]?.text).toMatch(/^APPROVAL_PENDING: .*retry the same call/);
    // The same call again waits on the same approval.
    expect(error(await client.callTool({ name: "refund", arguments: args }))?.approvalId).toBe(approvalId);
    expect(refunds()).toBe(before);
    // The Tool set to none runs at once.
    expect((await client.callTool({ name: "balance", arguments: { query: "x" } })).isError).toBeFalsy();

    const listed = await approver.approvals.list();
    const item = listed.pending.find((p) => p.id === approvalId);
    expect(item).toMatchObject({ identityName: identity.name, toolName: "refund", status: "pending" });
    expect(item?.arguments).toEqual({ query: "order-1", apiToken: "[redacted]" });
    const db = await getDb();
    expect(JSON.stringify(await db.parkedCall.findUnique({ where: { id: approvalId } }))).not.toContain("s3cret");
    // A viewer (or a curator) decides nothing and sees nothing.
    const viewer = callerFor((await makeUser("viewer")).actor);
    await expect(viewer.approvals.list()).rejects.toThrow();
    await expect(viewer.approvals.decide({ id: approvalId, decision: "approve" })).rejects.toThrow();

    expect(await approver.approvals.decide({ id: approvalId, decision: "approve" })).toEqual({
      id: approvalId,
      status: "approved",
    });
    await expect(
      approver.approvals.decide({ id: approvalId, decision: "deny", reason: "changed my mind" }),
    ).rejects.toThrow(/decided already/);
    // Other arguments are another call: parked anew, the approved one untouched.
    const other = await client.callTool({ name: "refund", arguments: { ...args, query: "order-2" } });
    expect(error(other)).toMatchObject({ code: "APPROVAL_PENDING" });
    expect(error(other)?.approvalId).not.toBe(approvalId);
    expect(refunds()).toBe(before);

    const ran = await client.callTool({ name: "refund", arguments: args });
    expect(ran.isError).toBeFalsy();
    expect(refunds()).toBe(before + 1);
    expect(calls.at(-1)?.args).toEqual(args);
    // Once: the next identical call needs a new approval.
    const again = await client.callTool({ name: "refund", arguments: args });
    expect(error(again)).toMatchObject({ code: "APPROVAL_PENDING" });
    expect(refunds()).toBe(before + 1);

    expect(await db.auditEvent.count({ where: { action: "call.approve", targetId: approvalId } })).toBe(1);
    await flushCallLog();
    const logged = await db.callLog.findMany({
      where: { identityId: identity.id, toolName: "refund" },
      orderBy: { startedAt: "asc" },
    });
    expect(logged.map((r) => r.failureCode ?? r.outcome)).toEqual([
      "APPROVAL_PENDING",
      "APPROVAL_PENDING",
      "APPROVAL_PENDING",
      "ok",
      "APPROVAL_PENDING",
    ]);
  });

  it("answers the retry after a denial with APPROVAL_DENIED and the approver's reason; a denial needs a reason", async () => {
    const { client } = await agent();
    const args = { query: "order-3" };
    const before = refunds();
    const approvalId = error(await client.callTool({ name: "refund", arguments: args }))?.approvalId as string;
    await expect(approver.approvals.decide({ id: approvalId, decision: "deny" })).rejects.toThrow(/reason/);
    await approver.approvals.decide({ id: approvalId, decision: "deny", reason: "refunds over limit need finance" });
    const denied = await client.callTool({ name: "refund", arguments: args });
    expect(error(denied)).toMatchObject({
      code: "APPROVAL_DENIED",
      approvalId,
      reason: "refunds over limit need finance",
    });
    expect((denied.content as { text: string }[])[0]?.text).toMatch(
      /denied this call of refund: refunds over limit need finance/,
    );
    expect(refunds()).toBe(before);
    const db = await getDb();
    expect(await db.auditEvent.findFirst({ where: { action: "call.deny", targetId: approvalId } })).toMatchObject({
      details: { reason: "refunds over limit need finance" },
    });
    expect((await approver.approvals.list()).decided.find((d) => d.id === approvalId)).toMatchObject({
      status: "denied",
    });
  });
});
