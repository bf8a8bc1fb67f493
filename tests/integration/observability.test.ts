/**
 * Traces and metrics. A fake OTLP/HTTP collector in the test receives the spans: an /mcp
 * request, its Tool Call, and the HTTP exchanges with the Source under it, in one trace
 * that continues the agent's own (traceparent in), with the Source receiving the trace
 * context (traceparent out); catalog checks likewise. Off, no Source sees a traceparent.
 * /api/metrics answers Prometheus text to an API key only, and counts calls.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { Server } from "@modelcontextprotocol/server";
import { trace } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushTracing, startTracing, stopTracing, traceHeaders, withSpan } from "@/server/observability/tracing";
import { callerFor, makeUser } from "../helpers/actors";
import { serveApp } from "../helpers/app-server";
import { checkedSource, connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { agentFor, callTool } from "../helpers/mcp-agent";
import { callRpc } from "../helpers/mcp-rpc";
import { type RunningServer, serveMcp, simpleTool, startRawServer, startSdkServer } from "../helpers/mcp-servers";
import { type ExportedSpan, startOtlpReceiver } from "../helpers/otlp-receiver";

withTestDatabase();

// Debian's Prometheus carries promtool; CI installs it (.ci/run), elsewhere its one check is skipped.
const PROMTOOL = "/usr/bin/promtool";
const ciRun = process.env.CI === "1" || process.env.CI === "true";
if (ciRun && !existsSync(PROMTOOL)) throw new Error("CI needs Debian's prometheus for promtool (.ci/run installs it)");

const closers: (() => Promise<void>)[] = [];
let app: Awaited<ReturnType<typeof serveApp>>;
let collector: Awaited<ReturnType<typeof startOtlpReceiver>>;
beforeAll(async () => {
  app = await serveApp();
  collector = await startOtlpReceiver();
  closers.push(app.close, collector.close);
});
afterAll(async () => {
  await stopTracing();
  await Promise.all(closers.map((close) => close()));
});

const sourceWith = (names: string[]) =>
  checkedSource(closers, names, (name) => ({ content: [{ type: "text", text: `did ${name}` }] }));

const traceparentsOf = (server: RunningServer) =>
  server.requests.map((r) => r.headers.traceparent).filter((t): t is string => typeof t === "string");

async function spansWhere(check: (spans: ExportedSpan[]) => boolean) {
  const end = Date.now() + 15_000;
  for (;;) {
    await flushTracing();
    if (check(collector.spans)) return collector.spans;
    if (Date.now() > end) throw new Error(`spans not received: ${collector.spans.map((s) => s.name).join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("traces", () => {
  it("are off without an endpoint: no span, no traceparent to Sources", async () => {
    expect(traceHeaders()).toEqual({});
    const { source, server } = await sourceWith(["quiet"]);
    const { token } = await agentFor([source.id]);
    await callTool(`${app.url}/mcp`, token, "quiet");
    expect(traceparentsOf(server)).toEqual([]);
  });

  it("follow an agent's call from /mcp through the Tool Call to the Source, which receives the trace context", async () => {
    await startTracing(collector.url);
    const { source, server } = await sourceWith(["traced"]);
    const { token } = await agentFor([source.id]);
    const agentTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    const agentSpan = "00f067aa0ba902b7";
    const before = server.requests.length;
    const answer = await callTool(
      `${app.url}/mcp`,
      token,
      "traced",
      {},
      { traceparent: `00-${agentTrace}-${agentSpan}-01` },
    );
    expect(answer.result?.content[0]?.text).toBe("did traced");

    const spans = await spansWhere((all) =>
      all.some((s) => s.name === "mcp.source.request" && s.traceId === agentTrace),
    );
    const inTrace = spans.filter((s) => s.traceId === agentTrace);
    const request = inTrace.find((s) => s.name === "mcp.request");
    const call = inTrace.find((s) => s.name === "mcp.tool_call");
    const exchanges = inTrace.filter((s) => s.name === "mcp.source.request");
    expect(request?.parentSpanId).toBe(agentSpan);
    expect(request?.kind).toBe(2); // SERVER
    expect(call?.parentSpanId).toBe(request?.spanId);
    expect(call?.attributes).toEqual(
      expect.arrayContaining([
        { key: "mcp.tool.name", value: { stringValue: "traced" } },
        { key: "qm.call.outcome", value: { stringValue: "ok" } },
        { key: "qm.source.id", value: { stringValue: source.id } },
      ]),
    );
    expect(request?.attributes).toEqual(
      expect.arrayContaining([{ key: "mcp.method.name", value: { stringValue: "tools/call" } }]),
    );
    expect(exchanges.length).toBeGreaterThan(0);
    for (const e of exchanges) {
      expect(e.parentSpanId).toBe(call?.spanId);
      expect(e.kind).toBe(3); // CLIENT
    }
    // Every request the Source got for this call carried the trace, each under its own exchange span.
    const received = traceparentsOf({ ...server, requests: server.requests.slice(before) });
    expect(received.length).toBe(server.requests.length - before);
    for (const t of received) {
      const [, traceId, parentId] = t.split("-");
      expect(traceId).toBe(agentTrace);
      expect(exchanges.map((e) => e.spanId)).toContain(parentId);
    }
  });

  it("are Quartermaster's own only: no framework span, no query string, no stack trace", async () => {
    await startTracing(collector.url);
    const from = collector.spans.length;
    // better-auth traces a sign-in through the global API; a tRPC query carries its input in the URL.
    const { email, password } = await makeUser("admin");
    const signIn = await fetch(`${app.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.url },
      body: JSON.stringify({ email, password }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const input = encodeURIComponent(JSON.stringify({ json: { query: "secret-memory-search" } }));
    await fetch(`${app.url}/api/trpc/users.list?input=${input}`, { headers: { cookie } });
    // Next.js's tracer, as it wraps a route: its span is not exported, and one of ours inside
    // it is a root, not the child of a span nobody receives.
    await trace
      .getTracer("next.js", "16")
      .startActiveSpan(
        "GET /api/trpc/users.list",
        { attributes: { "http.target": `/api/trpc?input=${input}` } },
        async (span) => {
          await withSpan("qm.test.inside_a_framework_span", {}, async () => {});
          await withSpan("qm.test.fails", {}, async () => {
            throw new Error("the Source answered nonsense");
          }).catch(() => {});
          span.end();
        },
      );
    const spans = (await spansWhere((all) => all.some((s) => s.name === "qm.test.fails"))).slice(from);
    expect(spans.map((s) => s.scope).filter((scope) => scope !== "quartermaster")).toEqual([]);
    expect(spans.find((s) => s.name === "qm.test.inside_a_framework_span")?.parentSpanId || undefined).toBeUndefined();
    const everything = JSON.stringify(spans);
    expect(everything).not.toContain("secret-memory-search");
    expect(everything).not.toContain("?input=");
    expect(everything).not.toContain("stacktrace");
    const failed = spans.find((s) => s.name === "qm.test.fails");
    expect(failed?.events?.[0]?.attributes).toEqual(
      expect.arrayContaining([{ key: "exception.message", value: { stringValue: "the Source answered nonsense" } }]),
    );
  });

  it("name a resource read's URI without its query (a Source's template may put a search there)", async () => {
    await startTracing(collector.url);
    const searchable = await serveMcp(() => {
      const mcp = new Server({ name: "searchable", version: "1" }, { capabilities: { tools: {}, resources: {} } });
      mcp.setRequestHandler("tools/list", async () => ({ tools: [simpleTool("search") as never] }));
      mcp.setRequestHandler("resources/templates/list", async () => ({
        resourceTemplates: [{ uriTemplate: "search://docs{?q}", name: "search" }],
      }));
      mcp.setRequestHandler("resources/read", async (request) => ({
        contents: [{ uri: request.params.uri, mimeType: "text/plain", text: "found" }],
      }));
      return mcp;
    });
    closers.push(searchable.close);
    const { api, source } = await connectionTo(searchable.url);
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
    const { token } = await agentFor([source.id]);
    const uri = `qm://source/${source.id}/search://docs?q=customer-secret-search#top`;
    const read = await callRpc(`${app.url}/mcp`, token, "resources/read", { uri });
    expect(read.error).toBeUndefined();
    const isRead = (s: ExportedSpan) =>
      s.name === "mcp.resource_read" && s.attributes.some((a) => a.value.stringValue === source.id);
    const spans = await spansWhere((all) => all.some(isRead));
    expect(spans.find(isRead)?.attributes).toEqual(
      expect.arrayContaining([
        { key: "mcp.resource.uri", value: { stringValue: `qm://source/${source.id}/search://docs` } },
      ]),
    );
    expect(JSON.stringify(spans)).not.toContain("customer-secret-search");
  });

  it("are the gateway's own decision: an agent's traceparent marked not sampled (00) still gives spans", async () => {
    await startTracing(collector.url);
    const { source } = await sourceWith(["unsampled"]);
    const { token } = await agentFor([source.id]);
    const agentTrace = "5bf92f3577b34da6a3ce929d0e0e4737";
    await callTool(`${app.url}/mcp`, token, "unsampled", {}, { traceparent: `00-${agentTrace}-00f067aa0ba902b8-00` });
    const spans = await spansWhere((all) => all.some((s) => s.name === "mcp.tool_call" && s.traceId === agentTrace));
    expect(spans.find((s) => s.name === "mcp.request" && s.traceId === agentTrace)?.parentSpanId).toBe(
      "00f067aa0ba902b8",
    );
  });

  it("mark a Source's HTTP 500 on its exchange span: the status code, the JSON-RPC method, an error", async () => {
    await startTracing(collector.url);
    const failing = await startRawServer(() => ({ status: 500, body: "the server broke" }));
    closers.push(failing.close);
    const { api, source } = await connectionTo(failing.url);
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("failed");
    const isCheck = (s: ExportedSpan) =>
      s.name === "catalog.check" && s.attributes.some((a) => a.value.stringValue === source.id);
    const spans = await spansWhere((all) => all.some(isCheck));
    const check = spans.find(isCheck);
    const listing = spans.find(
      (s) =>
        s.parentSpanId === check?.spanId &&
        s.attributes.some((a) => a.key === "mcp.method.name" && a.value.stringValue === "tools/list"),
    );
    expect(listing?.attributes).toEqual(
      expect.arrayContaining([{ key: "http.response.status_code", value: { intValue: 500 } }]),
    );
    expect(listing?.status).toMatchObject({ code: 2, message: "HTTP 500" }); // ERROR
  });

  it("cover catalog checks, with each page's exchange as a child", async () => {
    await startTracing(collector.url);
    const { source } = await sourceWith(["checked"]);
    const spans = await spansWhere((all) =>
      all.some((s) => s.name === "catalog.check" && s.attributes.some((a) => a.value.stringValue === source.id)),
    );
    const check = spans.find(
      (s) => s.name === "catalog.check" && s.attributes.some((a) => a.value.stringValue === source.id),
    );
    const children = spans.filter((s) => s.parentSpanId === check?.spanId);
    expect(children.length).toBeGreaterThan(0);
    expect(children.every((s) => s.name === "mcp.source.request")).toBe(true);
    await stopTracing();
    expect(traceHeaders()).toEqual({});
  });
});

describe("/api/metrics", () => {
  const scrape = (key?: string) =>
    fetch(`${app.url}/api/metrics`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  const seriesValue = (text: string, series: string) => {
    const line = text.split("\n").find((l) => l.startsWith(`${series} `));
    return line ? Number(line.split(" ")[1]) : 0;
  };

  it("refuses a request without a valid API key", async () => {
    const none = await scrape();
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    expect((await scrape("qm_key_not_a_real_one")).status).toBe(401);
    const admin = callerFor((await makeUser("admin")).actor);
    const { apiKey, key } = await admin.apiKeys.create({ name: "revoked scraper", role: "viewer" });
    await admin.apiKeys.revoke({ id: apiKey.id });
    expect((await scrape(key)).status).toBe(401);
  });

  it("exposes counters and latency histograms that move with calls and checks", async () => {
    const admin = callerFor((await makeUser("admin")).actor);
    const { key } = await admin.apiKeys.create({ name: "scraper", role: "viewer" });
    const ok = 'qm_tool_calls_total{code="",kind="catalog",outcome="ok"}';
    const missing = 'qm_tool_calls_total{code="NOT_FOUND",kind="catalog",outcome="failed"}';
    const before = await (await scrape(key)).text();

    const { source } = await sourceWith(["counted"]);
    const { token } = await agentFor([source.id]);
    await callTool(`${app.url}/mcp`, token, "counted");
    await callTool(`${app.url}/mcp`, token, "counted");
    await callTool(`${app.url}/mcp`, token, "not_there");

    const response = await scrape(key);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    const after = await response.text();
    expect(seriesValue(after, ok) - seriesValue(before, ok)).toBe(2);
    expect(seriesValue(after, missing) - seriesValue(before, missing)).toBe(1);
    expect(after).toContain("# TYPE qm_tool_call_duration_seconds histogram");
    expect(after).toMatch(/qm_tool_call_duration_seconds_bucket\{kind="catalog",outcome="ok",le="\+Inf"\} \d+/);
    expect(seriesValue(after, 'qm_mcp_requests_total{status="200"}')).toBeGreaterThanOrEqual(3);
    expect(seriesValue(after, 'qm_catalog_checks_total{code="",outcome="succeeded"}')).toBeGreaterThan(
      seriesValue(before, 'qm_catalog_checks_total{code="",outcome="succeeded"}'),
    );
    expect(after).toContain("qm_call_log_pending_rows");
  });

  it("count a built-in's refusal as a failure with its code, as a catalog Tool's, and Sources by state", async () => {
    const admin = callerFor((await makeUser("admin")).actor);
    const { key } = await admin.apiKeys.create({ name: "state scraper", role: "viewer" });
    const refused = 'qm_tool_calls_total{code="INVALID_ARGUMENTS",kind="built_in",outcome="failed"}';
    const isError = 'qm_tool_calls_total{code="",kind="built_in",outcome="is_error"}';
    const failing = 'qm_sources{kind="mcp_connection",state="failing"}';
    const ok = 'qm_sources{kind="mcp_connection",state="ok"}';
    const before = await (await scrape(key)).text();

    const { source } = await sourceWith(["stateful"]);
    const { token } = await agentFor([source.id]);
    await callTool(`${app.url}/mcp`, token, "get_memories", { ids: "not a list" });
    // A Connection whose server is gone: its check fails, and the gauge shows it.
    const gone = await startSdkServer({ catalog: () => [simpleTool("gone")] });
    await gone.close();
    const { api, source: broken } = await connectionTo(gone.url);
    expect((await api.sources.checkNow({ id: broken.id })).status).toBe("failed");

    const after = await (await scrape(key)).text();
    expect(seriesValue(after, refused) - seriesValue(before, refused)).toBe(1);
    expect(seriesValue(after, isError)).toBe(seriesValue(before, isError));
    expect(seriesValue(after, failing) - seriesValue(before, failing)).toBe(1);
    expect(seriesValue(after, ok) - seriesValue(before, ok)).toBe(1);
    expect(after).toContain("# TYPE qm_sources gauge");
    expect(after).toMatch(/^qm_sources\{kind="sdk_tool_host",state="host_silent"\} \d+$/m);
  });

  it.skipIf(!existsSync(PROMTOOL))("passes promtool's check, after calls, refusals and checks", async () => {
    const admin = callerFor((await makeUser("admin")).actor);
    const { key } = await admin.apiKeys.create({ name: "linted scraper", role: "viewer" });
    const { source } = await sourceWith(["linted"]);
    const { token } = await agentFor([source.id]);
    await callTool(`${app.url}/mcp`, token, "linted");
    await callTool(`${app.url}/mcp`, token, "get_memories", { ids: "not a list" });
    const text = await (await scrape(key)).text();
    const lint = spawnSync(PROMTOOL, ["check", "metrics"], { input: text, encoding: "utf8" });
    expect(`${lint.stdout}${lint.stderr}`.trim()).toBe("");
    expect(lint.status).toBe(0);
  });

  it("count trace exports, failed ones too (a collector that refuses)", async () => {
    const admin = callerFor((await makeUser("admin")).actor);
    const { key } = await admin.apiKeys.create({ name: "export scraper", role: "viewer" });
    const failed = 'qm_trace_exports_total{outcome="failed"}';
    const before = seriesValue(await (await scrape(key)).text(), failed);
    const refusing = await startSdkServer({ catalog: () => [] });
    await refusing.close(); // nothing listens there any more
    await startTracing(new URL(refusing.url).origin);
    await withSpan("qm.test.unsent", {}, async () => {});
    await flushTracing().catch(() => {});
    await expect
      .poll(async () => seriesValue(await (await scrape(key)).text(), failed), { timeout: 20_000 })
      .toBeGreaterThan(before);
    await stopTracing();
  });
});
