/**
 * A result submission that collects the host's next calls (calls/results?collect=true,
 * decision 0093): the SDK working through calls back-to-back takes each next call from the
 * request that hands in the last result; a host of the older protocol (separate collections
 * and submissions) and an SDK against a Quartermaster that does not offer it still work.
 * Real HTTP: the app's own routes on a loopback port, a real MCP client as the agent.
 */
import { type CallToolResult, Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createToolHost } from "@quartermaster/tool-host";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "@/server/db";
import { operator } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { simpleTool } from "../helpers/mcp-servers";
import { type ProductServer, startProduct } from "../helpers/product-server";

withTestDatabase();
const cleanup: (() => Promise<unknown>)[] = [];
let product: ProductServer;
beforeAll(async () => {
  product = await startProduct();
  cleanup.push(() => product.close());
});
afterAll(async () => {
  for (const close of cleanup.reverse()) await close().catch(() => {});
});

let n = 0;
const unique = (name: string) => `${name}_${++n}`;

async function newHostSource() {
  const api = await operator();
  return api.sources.createToolHost({ name: unique("host"), heartbeatTimeoutSeconds: 60 });
}

async function agentFor(sourceId: string) {
  const api = await operator();
  const identity = await api.identities.create({ name: unique("agent") });
  await api.identities.assignSource({ identityId: identity.id, sourceId });
  const { value: token } = await api.identities.createToken({ identityId: identity.id, name: "test" });
  const client = new Client({ name: "collect-with-results-agent", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${product.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  cleanup.push(() => client.close());
  return client;
}

/** The model-facing name of the Source's Tool `nativeName`. */
async function toolName(sourceId: string, nativeName: string) {
  const tool = await (await getDb()).tool.findFirstOrThrow({ where: { sourceId, nativeName } });
  return tool.modelFacingName ?? "";
}

/** Collects (calls/next) until a call comes: a loaded machine may take longer than one long poll to queue it. */
async function collectOne(base: string, headers: Record<string, string>): Promise<{ id: string; arguments: unknown }> {
  for (;;) {
    const res = await fetch(`${base}/calls/next?wait=25&max=1`, { method: "POST", headers });
    const [call] = ((await res.json()) as { calls: { id: string; arguments: unknown }[] }).calls;
    if (call) return call;
  }
}

const text = (result: unknown) => ((result as CallToolResult).content as { text: string }[])[0]?.text ?? "";

/** An SDK host with one Tool that answers at once; its requests' URLs are recorded as sent. */
async function echoHost(hostToken: string, options: { olderServer?: boolean } = {}) {
  const sent: string[] = [];
  const host = createToolHost({
    url: product.url,
    token: hostToken,
    logger: false,
    backoff: { initialMs: 50, maxMs: 400 },
    fetch: async (input, init) => {
      const url = new URL(String(input));
      sent.push(`${url.pathname.replace("/api/v1/tool-hosts", "")}${url.search}`);
      const res = await fetch(input, init);
      if (!options.olderServer || !url.pathname.endsWith("/registration")) return res;
      // A Quartermaster from before collectWithResults: its registration answer lacks the field.
      const { collectWithResults: _, ...answer } = (await res.json()) as Record<string, unknown>;
      return Response.json(answer, { status: res.status });
    },
  });
  host.tool({
    name: "echo",
    description: "Echo the text back.",
    input: z.object({ text: z.string() }),
    handler: ({ text }) => `echo: ${text}`,
  });
  await host.serve();
  cleanup.push(() => host.close({ graceMs: 0 }));
  return { host, sent };
}

describe("result submissions that collect the next calls", () => {
  it("a host working through calls back-to-back takes each next call from its result submission, with no collection of its own", async () => {
    const { source, hostToken } = await newHostSource();
    const { sent } = await echoHost(hostToken);
    const client = await agentFor(source.id);
    const name = await toolName(source.id, "echo");
    expect(text(await client.callTool({ name, arguments: { text: "first" } }))).toBe("echo: first");
    const before = sent.length;
    for (let i = 0; i < 8; i++)
      expect(text(await client.callTool({ name, arguments: { text: `call ${i}` } }))).toBe(`echo: call ${i}`);
    // Let the last result's request leave.
    await expect.poll(() => sent.slice(before).filter((s) => s.startsWith("/calls/results")).length).toBe(8);
    const during = sent.slice(before);
    // Each result went in the request that then waited for (and brought back) the next call…
    for (const request of during.filter((s) => s.startsWith("/calls/results")))
      expect(request).toMatch(/^\/calls\/results\?collect=true&wait=\d+&max=\d+$/);
    // …so no collection of its own (the older exchange took one per call besides the submission).
    expect(during.filter((s) => s.startsWith("/calls/next"))).toEqual([]);
  });

  it("an SDK host against a Quartermaster that does not offer it collects and submits separately, and is answered", async () => {
    const { source, hostToken } = await newHostSource();
    const { sent } = await echoHost(hostToken, { olderServer: true });
    const client = await agentFor(source.id);
    const name = await toolName(source.id, "echo");
    for (let i = 0; i < 4; i++)
      expect(text(await client.callTool({ name, arguments: { text: `call ${i}` } }))).toBe(`echo: call ${i}`);
    await expect.poll(() => sent.filter((s) => s.startsWith("/calls/results")).length).toBe(4);
    expect(sent.filter((s) => s.includes("collect="))).toEqual([]);
    expect(sent.filter((s) => s.startsWith("/calls/next")).length).toBeGreaterThanOrEqual(4);
  });

  it("a host of the older protocol (calls/next, then calls/results without collect) still gets calls and answers them", async () => {
    const { source, hostToken } = await newHostSource();
    const base = `${product.url}/api/v1/tool-hosts`;
    const headers = { authorization: `Bearer ${hostToken}`, "content-type": "application/json" };
    const post = async (path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method: "POST",
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const registered = await fetch(`${base}/registration`, {
      method: "PUT",
      headers,
      body: JSON.stringify({ tools: [simpleTool("old_echo")] }),
    });
    expect(registered.status).toBe(200);
    const client = await agentFor(source.id);
    const name = await toolName(source.id, "old_echo");

    const answers = [];
    for (let i = 0; i < 2; i++) {
      const answer = client.callTool({ name, arguments: { query: `q${i}` } });
      const one = await collectOne(base, headers);
      expect(one.arguments).toEqual({ query: `q${i}` });
      const { status, body } = await post("/calls/results", { results: [{ id: one.id, output: `old ${i}` }] });
      // The answer of old: the outcome alone, no calls.
      expect({ status, body }).toEqual({ status: 200, body: { delivered: [one.id], refused: [], unknown: [] } });
      answers.push(text(await answer));
    }
    expect(answers).toEqual(["old 0", "old 1"]);

    // The same endpoint with collect=true hands the next call waiting over with the outcome.
    const next = client.callTool({ name, arguments: { query: "q2" } });
    const third = await collectOne(base, headers);
    const fourth = client.callTool({ name, arguments: { query: "q3" } });
    await expect
      .poll(async () => (await getDb()).toolCall.count({ where: { sourceId: source.id, status: "pending" } }))
      .toBe(1);
    const combined = await post("/calls/results?collect=true&wait=25&max=4", {
      results: [{ id: third.id, output: "new 2" }],
    });
    expect(combined.status).toBe(200);
    expect(combined.body).toMatchObject({ delivered: [third.id], refused: [], unknown: [] });
    const [handed] = combined.body.calls as { id: string; arguments: unknown }[];
    expect(handed?.arguments).toEqual({ query: "q3" });
    expect(text(await next)).toBe("new 2");
    // Nothing waits: collect=true&wait=0 answers at once, with no calls.
    const last = await post("/calls/results?collect=true&wait=0", { results: [{ id: handed?.id, output: "new 3" }] });
    expect(last.body).toEqual({ delivered: [handed?.id], refused: [], unknown: [], calls: [] });
    expect(text(await fourth)).toBe("new 3");
  });

  it("refuses a malformed collect, wait or max before taking the results", async () => {
    const { source, hostToken } = await newHostSource();
    const base = `${product.url}/api/v1/tool-hosts`;
    const headers = { authorization: `Bearer ${hostToken}`, "content-type": "application/json" };
    await fetch(`${base}/registration`, {
      method: "PUT",
      headers,
      body: JSON.stringify({ tools: [simpleTool("strict_echo")] }),
    });
    const client = await agentFor(source.id);
    const answer = client.callTool({ name: await toolName(source.id, "strict_echo"), arguments: { query: "q" } });
    const { id } = await collectOne(base, headers);
    const body = JSON.stringify({ results: [{ id, output: "kept" }] });
    for (const [query, field] of [
      ["collect=yes", "collect"],
      ["collect=true&wait=600", "wait"],
      ["collect=true&max=0", "max"],
    ] as const) {
      const res = await fetch(`${base}/calls/results?${query}`, { method: "POST", headers, body });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: "INVALID_INPUT", details: { field } });
    }
    // Nothing was lost: the result is still taken afterwards.
    const res = await fetch(`${base}/calls/results`, { method: "POST", headers, body });
    expect(await res.json()).toEqual({ delivered: [id], refused: [], unknown: [] });
    expect(text(await answer)).toBe("kept");
  });
});
