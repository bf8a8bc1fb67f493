/**
 * One error format for refused arguments (issue 32, item 6), with the real SDK (sdk/dist)
 * against the app's own routes over real HTTP and a real MCP client as the agent: what
 * Quartermaster refuses against the published JSON Schema and what the host's zod schema
 * refuses beyond it (a refinement) reach the agent alike — INVALID_ARGUMENTS, the field, the
 * rule in words — and the call log records the code either way.
 */
import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import { AuthenticationError, createToolHost, type ToolHostOptions } from "@quartermaster/tool-host";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "@/server/db";
import { flushCallLog } from "@/server/domain/calls/recorder";
import { toolHostWorld } from "../helpers/tool-host-world";

const { url, cleanup, unique, newHostSource, agentFor } = toolHostWorld("args");

function sdkHost(hostToken: string, options: Partial<ToolHostOptions> = {}) {
  const warnings: string[] = [];
  const host = createToolHost({
    url: url(),
    token: hostToken,
    logger: { info: () => {}, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) },
    backoff: { initialMs: 50, maxMs: 400 },
    ...options,
  });
  cleanup.push(() => host.close({ graceMs: 0 }));
  return { host, warnings };
}

const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const text = (result: CallToolResult) => (result.content as { text: string }[])[0]?.text ?? "";
const errorCode = (result: CallToolResult) =>
  (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;

async function callLog(identityId: string) {
  await flushCallLog();
  const db = await getDb();
  const rows = await db.callLog.findMany({ where: { identityId }, orderBy: { startedAt: "asc" } });
  return rows.map((r) => [r.outcome, r.failureCode]);
}

const FIX = "Correct the arguments and call again; tools/list (or find_tools) carries the Tool's input schema.";
const today = () => new Date().toISOString().slice(0, 10);

/** The issue's own ticket search: an enum, an optional date that must not be in the future. */
function ticketSearch(name: string, ran: unknown[]) {
  return {
    name,
    description: "Search support tickets.",
    input: z.object({
      status: z.enum(["open", "closed"]),
      // A refinement JSON Schema cannot express: only the host can check it.
      createdAfter: z.iso
        .date()
        .refine((d) => d <= today(), "must not be in the future")
        .optional(),
    }),
    handler: (args: unknown) => {
      ran.push(args);
      return "3 tickets";
    },
  };
}

describe("arguments refused on either side of an SDK Tool call", () => {
  it("reach the agent in one format — INVALID_ARGUMENTS, the field, the rule — and the call log records the code", async () => {
    const { source, hostToken } = await newHostSource();
    const { host, warnings } = sdkHost(hostToken);
    const search = unique("search_tickets");
    const ran: unknown[] = [];
    host.tool(ticketSearch(search, ran));
    await host.serve();
    const { client, identityId } = await agentFor(source.id);

    // Refused by Quartermaster against the published schema: never reaches the host.
    const badStatus = await call(client, search, { status: "pending" });
    expect(text(badStatus)).toBe(`INVALID_ARGUMENTS: status: must be one of ["open","closed"]. ${FIX}`);
    // The schema carries zod's regex for the date beside its format: the model reads the words.
    const badDate = await call(client, search, { status: "open", createdAfter: "2026-02-30" });
    expect(text(badDate)).toBe(`INVALID_ARGUMENTS: createdAfter: must be a YYYY-MM-DD date. ${FIX}`);
    // Refused by the host's refinement: the same code and form, the field named.
    const future = await call(client, search, { status: "open", createdAfter: "2999-01-01" });
    expect(text(future)).toBe(`INVALID_ARGUMENTS: createdAfter: must not be in the future. ${FIX}`);
    for (const refused of [badStatus, badDate, future]) {
      expect(refused.isError).toBe(true);
      expect(errorCode(refused)).toBe("INVALID_ARGUMENTS");
    }
    expect(ran).toEqual([]);

    const fine = await call(client, search, { status: "open", createdAfter: today() });
    expect([fine.isError ?? false, text(fine)]).toEqual([false, "3 tickets"]);
    expect(await callLog(identityId)).toEqual([
      ["failed", "INVALID_ARGUMENTS"],
      ["failed", "INVALID_ARGUMENTS"],
      ["failed", "INVALID_ARGUMENTS"],
      ["ok", null],
    ]);
    // The host's refusal is an answer, not a result Quartermaster refused: nothing to warn about.
    expect(warnings).toEqual([]);
  });

  it("refuse unknown arguments where the schema says additionalProperties: false, at any depth, and take them where it does not", async () => {
    const { source, hostToken } = await newHostSource();
    const { host } = sdkHost(hostToken);
    const strict = unique("create_ticket");
    const lenient = unique("find_ticket");
    const ran: unknown[] = [];
    host
      .tool({
        name: strict,
        description: "Create a ticket.",
        input: z.strictObject({
          title: z.string(),
          tags: z.array(z.strictObject({ name: z.string() })).default([]),
        }),
        handler: (args) => {
          ran.push(args);
          return "created";
        },
      })
      .tool({
        name: lenient,
        description: "Find a ticket.",
        input: z.object({ id: z.string() }),
        handler: (args) => JSON.stringify(args),
      });
    await host.serve();
    const { client, identityId } = await agentFor(source.id);

    const typo = await call(client, strict, { title: "Printer on fire", priorty: "high" });
    expect(text(typo)).toBe(`INVALID_ARGUMENTS: priorty: is not an argument of this Tool. ${FIX}`);
    const nested = await call(client, strict, { title: "x", tags: [{ name: "a", colour: "red" }] });
    expect(text(nested)).toBe(`INVALID_ARGUMENTS: tags.0.colour: is not an argument of this Tool. ${FIX}`);
    expect(ran).toEqual([]);
    // z.object publishes no additionalProperties: an extra argument is accepted, and zod drops it.
    const extra = await call(client, lenient, { id: "T-1", note: "ignored" });
    expect([extra.isError ?? false, text(extra)]).toEqual([false, '{"id":"T-1"}']);
    expect(await callLog(identityId)).toEqual([
      ["failed", "INVALID_ARGUMENTS"],
      ["failed", "INVALID_ARGUMENTS"],
      ["ok", null],
    ]);
  });

  it("from a Quartermaster that predates coded results still read INVALID_ARGUMENTS, and the submission is not refused", async () => {
    const { source, hostToken } = await newHostSource();
    // The registration answer without resultCodes, as an older Quartermaster gives it.
    const submitted: { body: string; status: number }[] = [];
    const olderServer: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (new URL(String(input)).pathname.endsWith("/calls/results"))
        submitted.push({ body: String(init?.body), status: response.status });
      if (!String(input).endsWith("/registration")) return response;
      // …which predates results that collect the next calls too (decision 0093).
      const { resultCodes: _, collectWithResults: __, ...answer } = (await response.json()) as Record<string, unknown>;
      return Response.json(answer, { status: response.status });
    };
    const { host } = sdkHost(hostToken, { fetch: olderServer });
    const search = unique("search_tickets");
    host.tool(ticketSearch(search, []));
    await host.serve();
    const { client, identityId } = await agentFor(source.id);
    const future = await call(client, search, { status: "open", createdAfter: "2999-01-01" });
    expect([future.isError, text(future)]).toEqual([
      true,
      `INVALID_ARGUMENTS: createdAfter: must not be in the future. ${FIX}`,
    ]);
    // The code went in the text, not in a field the older server's strict schema would refuse.
    expect(submitted.map((s) => [s.status, s.body.includes('"code"')])).toEqual([[200, false]]);
    // Only the code is lost: the call log has the Tool's own error answer.
    expect(await callLog(identityId)).toEqual([["is_error", null]]);
  });
});

describe("a host's coded result", () => {
  it("may name only the codes the registration answer lists: a host cannot pose as Quartermaster's other failures", async () => {
    const { hostToken } = await newHostSource();
    const answer = await fetch(`${url()}/api/v1/tool-hosts/registration`, {
      method: "PUT",
      headers: { authorization: `Bearer ${hostToken}`, "content-type": "application/json" },
      body: JSON.stringify({ tools: [{ name: unique("t"), inputSchema: { type: "object" } }] }),
    });
    // Refused arguments, and the host's own result breaking the result rules: codes that blame the host.
    expect((await answer.json()).resultCodes).toEqual([
      "INVALID_ARGUMENTS",
      "TOOL_RESULT_MALFORMED",
      "TOOL_RESULT_TEXT_TOO_LONG",
      "TOOL_RESULT_NUL",
      "TOOL_RESULT_TOO_LARGE",
    ]);
    const posing = await fetch(`${url()}/api/v1/tool-hosts/calls/results`, {
      method: "POST",
      headers: { authorization: `Bearer ${hostToken}`, "content-type": "application/json" },
      body: JSON.stringify({ results: [{ id: "c1", error: "slow down", code: "RATE_LIMITED" }] }),
    });
    expect(posing.status).toBe(400);
    expect(await posing.json()).toMatchObject({ code: "INVALID_INPUT" });
    for (const code of ["TOOL_CALL_TIMEOUT", "TOOL_HOST_OFFLINE", "TOOL_CALL_CANCELLED"]) {
      const refused = await fetch(`${url()}/api/v1/tool-hosts/calls/results`, {
        method: "POST",
        headers: { authorization: `Bearer ${hostToken}`, "content-type": "application/json" },
        body: JSON.stringify({ results: [{ id: "c1", error: "not me", code }] }),
      });
      expect(refused.status).toBe(400);
    }
  });
});

describe("a host token Quartermaster does not know", () => {
  it("is answered as not valid — the SDK's serve() rejects saying so — while a request with no token is told to send one", async () => {
    const { host } = sdkHost("qm_host_not-a-real-token");
    host.tool({ name: unique("x"), description: "", input: z.object({}), handler: () => "" });
    const refused = await host.serve().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect((refused as Error).message).toMatch(/^The host token sent is not valid: it is mistyped, was rotated/);

    const none = await fetch(`${url()}/api/v1/tool-hosts/heartbeat`, { method: "POST" });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({
      code: "UNAUTHENTICATED",
      message: "Send the SDK Tool Host's token as Authorization: Bearer <host token>.",
    });
  });
});
