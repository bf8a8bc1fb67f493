/**
 * SDK Tool results beyond one text (issue 32, item 5), with the real SDK (sdk/dist) against
 * the app's own routes over real HTTP and a real MCP client as the agent: a Tool's output
 * schema listed and its value returned as structuredContent, images, audio and resource
 * links passed through as the host sent them, and a malformed block failing only its call.
 */
import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import { audio, createToolHost, image, resourceLink, type ToolHostOptions, toolResult } from "@quartermaster/tool-host";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "@/server/db";
import { collectHostCalls } from "@/server/domain/agent-tools/host-calls";
import { flushCallLog } from "@/server/domain/calls/recorder";
import { authenticateToolHost, registerTools } from "@/server/domain/sources/tool-hosts";
import { toolHostWorld } from "../helpers/tool-host-world";

const { url, cleanup, unique, newHostSource, agentFor } = toolHostWorld("results");

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

async function callLog(identityId: string) {
  await flushCallLog();
  const db = await getDb();
  const rows = await db.callLog.findMany({ where: { identityId }, orderBy: { startedAt: "asc" } });
  return rows.map((r) => [r.outcome, r.failureCode]);
}

// A 1×1 PNG, as bytes: the SDK base64-encodes them.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

describe("an SDK Tool's result beyond one text", () => {
  it("passes images, audio and resource links through, beside an output schema's value as structuredContent", async () => {
    const { source, hostToken } = await newHostSource();
    const { host, warnings } = sdkHost(hostToken);
    const chart = unique("sales_chart");
    const clip = unique("voice_note");
    host
      .tool({
        name: chart,
        description: "Chart a month's sales.",
        input: z.object({ month: z.string() }),
        output: z.object({ month: z.string(), total: z.number() }),
        handler: ({ month }) =>
          toolResult(
            [
              image(PNG, "image/png"),
              resourceLink({
                uri: `https://sales.example/reports/${month}.csv`,
                name: `${month}.csv`,
                mimeType: "text/csv",
              }),
            ],
            { month, total: 1234.5 },
          ),
      })
      .tool({
        name: clip,
        description: "A voice note.",
        input: z.object({}),
        handler: () => toolResult([{ type: "text", text: "Here it is:" }, audio("UklGRg==", "audio/wav")]),
      });
    await host.serve();
    const { client, identityId } = await agentFor(source.id);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === chart)?.outputSchema).toEqual({
      type: "object",
      properties: { month: { type: "string" }, total: { type: "number" } },
      required: ["month", "total"],
      additionalProperties: false,
    });

    // The MCP client checks structuredContent against the listed outputSchema: it passed.
    const charted = await call(client, chart, { month: "2026-11" });
    expect(charted).toEqual({
      content: [
        // No block was text: the structured value is mirrored as text first, as MCP asks.
        { type: "text", text: '{"month":"2026-11","total":1234.5}' },
        { type: "image", data: PNG.toString("base64"), mimeType: "image/png" },
        {
          type: "resource_link",
          uri: "https://sales.example/reports/2026-11.csv",
          name: "2026-11.csv",
          mimeType: "text/csv",
        },
      ],
      structuredContent: { month: "2026-11", total: 1234.5 },
    });
    const voiced = await call(client, clip, {});
    expect(voiced.content).toEqual([
      { type: "text", text: "Here it is:" },
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
    ]);
    expect(voiced.structuredContent).toBeUndefined();
    expect(await callLog(identityId)).toEqual([
      ["ok", null],
      ["ok", null],
    ]);
    expect(warnings).toEqual([]);
  });

  it("fails only the call whose block is malformed, whether the SDK or Quartermaster finds it", async () => {
    const { source, hostToken } = await newHostSource();
    const { host, warnings } = sdkHost(hostToken);
    const broken = unique("broken_chart");
    host.tool({
      name: broken,
      description: "Return a broken image.",
      input: z.object({}),
      handler: () => toolResult([image("not base64!", "image/png")]),
    });
    await host.serve();
    const { client, identityId } = await agentFor(source.id);
    const answer = await call(client, broken, {});
    expect([answer.isError, text(answer)]).toEqual([
      true,
      "TOOL_RESULT_MALFORMED: Content block 1 (image) needs base64 data and a mimeType.",
    ]);
    expect(warnings.some((w) => w.includes(broken) && w.includes("TOOL_RESULT_MALFORMED"))).toBe(true);

    // A host in another language skips the SDK's check: Quartermaster's own refuses that one result.
    const { source: rawSource, hostToken: rawToken } = await newHostSource();
    const raw = (await authenticateToolHost(rawToken))!;
    const other = unique("raw_tool");
    await registerTools(raw, { tools: [{ name: other, inputSchema: { type: "object" } }] });
    const { client: agent, identityId: agentId } = await agentFor(rawSource.id);
    const answers = Promise.all([call(agent, other, { n: 1 }), call(agent, other, { n: 2 })]);
    const collected: { id: string; arguments: Record<string, unknown> }[] = [];
    const until = Date.now() + 10_000;
    while (collected.length < 2 && Date.now() < until) collected.push(...(await collectHostCalls(raw, 1_000)));
    const [first, second] = [...collected].sort((a, b) => Number(a.arguments.n) - Number(b.arguments.n));
    const submitted = await fetch(`${url()}/api/v1/tool-hosts/calls/results`, {
      method: "POST",
      headers: { authorization: `Bearer ${rawToken}`, "content-type": "application/json" },
      body: JSON.stringify({
        results: [
          { id: first!.id, content: [{ type: "video", uri: "x" }] },
          { id: second!.id, content: [{ type: "resource_link", uri: "https://x.example/a", name: "a" }] },
        ],
      }),
    });
    expect(submitted.status).toBe(200);
    expect(await submitted.json()).toMatchObject({
      delivered: [second!.id],
      refused: [{ id: first!.id, code: "TOOL_RESULT_MALFORMED" }],
    });
    const [bad, good] = await answers;
    expect(text(bad!)).toBe(
      'TOOL_RESULT_MALFORMED: Content block 1 has type "video"; a result\'s blocks are text, image, audio, resource_link, resource.',
    );
    expect(good!.content).toEqual([{ type: "resource_link", uri: "https://x.example/a", name: "a" }]);
    // The SDK's own find carries its code too (the registration answer lists it), so the call
    // log says why whichever side found it; the host meant it, so it counts as delivered.
    expect(await callLog(identityId)).toEqual([["failed", "TOOL_RESULT_MALFORMED"]]);
    expect(await callLog(agentId)).toEqual([
      ["failed", "TOOL_RESULT_MALFORMED"],
      ["ok", null],
    ]);
  });

  it("reaches a Quartermaster that takes only text as the texts, naming what it could not send", async () => {
    const { source, hostToken } = await newHostSource();
    const olderServer: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).endsWith("/registration")) return response;
      const { resultContent: _, ...answer } = (await response.json()) as Record<string, unknown>;
      return Response.json(answer, { status: response.status });
    };
    const { host } = sdkHost(hostToken, { fetch: olderServer });
    const chart = unique("sales_chart");
    host.tool({
      name: chart,
      description: "Chart a month's sales.",
      input: z.object({}),
      handler: () => toolResult([{ type: "text", text: "November:" }, image(PNG, "image/png")]),
    });
    await host.serve();
    const { client } = await agentFor(source.id);
    expect((await call(client, chart, {})).content).toEqual([
      { type: "text", text: "November:\n\n[image not sent: this Quartermaster takes text results only]" },
    ]);
  });
});
