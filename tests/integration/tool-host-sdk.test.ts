/**
 * The Tool Host SDK (@quartermaster/tool-host, as built into sdk/dist) against the product
 * over real HTTP: the app's own /mcp and SDK Tool Host API routes on a loopback port, a
 * real MCP client as the agent.
 */
import { type CallToolResult, Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  AuthenticationError,
  createToolHost,
  type Logger,
  RegistrationError,
  SDK_VERSION,
  type ToolHostOptions,
} from "@quartermaster/tool-host";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "@/server/db";
import { flushCallLog } from "@/server/domain/calls/recorder";
import { authenticateToolHost, registerTools } from "@/server/domain/sources/tool-hosts";
import { LIMITS } from "@/server/limits";
import { builtInTool } from "@/server/mcp/tools/registry";
import { operator } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
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

/** Everything the SDK logged, by level. */
function captureLogger() {
  const lines: { level: string; message: string }[] = [];
  const logger: Logger = {
    debug: (message) => lines.push({ level: "debug", message }),
    info: (message) => lines.push({ level: "info", message }),
    warn: (message) => lines.push({ level: "warn", message }),
    error: (message) => lines.push({ level: "error", message }),
  };
  return { logger, lines, warnings: () => lines.filter((l) => l.level === "warn").map((l) => l.message) };
}

/** An SDK Tool Host Source in the catalog, with its token; the SDK host is not started. */
async function newHostSource(heartbeatTimeoutSeconds = 60) {
  const api = await operator();
  const { source, hostToken } = await api.sources.createToolHost({ name: unique("sdk-host"), heartbeatTimeoutSeconds });
  return { api, source, hostToken };
}

function sdkHost(hostToken: string, options: Partial<ToolHostOptions> = {}, url = product.url) {
  const log = captureLogger();
  const host = createToolHost({
    url,
    token: hostToken,
    logger: log.logger,
    backoff: { initialMs: 50, maxMs: 400 },
    ...options,
  });
  cleanup.push(() => host.close({ graceMs: 0 }));
  return { host, log };
}

/** An agent holding the host's Tools, connected to /mcp with a real MCP client. */
async function agentFor(sourceId: string, mcpBase = product.url) {
  const api = await operator();
  const identity = await api.identities.create({ name: unique("sdk-agent") });
  await api.identities.assignSource({ identityId: identity.id, sourceId });
  const { value: token } = await api.identities.createToken({ identityId: identity.id, name: "test" });
  const client = new Client({ name: "sdk-test-agent", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${mcpBase}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  cleanup.push(() => client.close());
  return client;
}

const text = (result: unknown) => ((result as CallToolResult).content as { text: string }[])[0]?.text ?? "";
const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

const submissions = () => product.seen.filter((r) => r.path === "/api/v1/tool-hosts/calls/results");

describe("an SDK Tool Host built with @quartermaster/tool-host", () => {
  it("publishes its zod-defined Tools, and an agent calls them through /mcp and gets their results", async () => {
    const { source, hostToken } = await newHostSource();
    const { host } = sdkHost(hostToken);
    const getInvoice = unique("get_invoice");
    const totals = unique("invoice_totals");
    host
      .tool({
        name: getInvoice,
        title: "Get invoice",
        description: "Read one invoice.",
        input: z.object({
          invoiceId: z.string().describe("Invoice id, e.g. inv_42"),
          withLines: z.boolean().default(false),
        }),
        annotations: { readOnlyHint: true },
        handler: ({ invoiceId, withLines }, context) =>
          `Invoice ${invoiceId}: 120.00 EUR, paid${withLines ? ", 2 lines" : ""} (call ${context.callId.length > 0}).`,
      })
      .tool({
        name: totals,
        description: "Sum a customer's invoices.",
        input: z.object({ customerId: z.string() }),
        output: z.object({ customerId: z.string(), total: z.number(), currency: z.enum(["EUR", "USD"]) }),
        handler: ({ customerId }) => ({ customerId, total: 240.5, currency: "EUR" as const }),
      });
    await host.serve();
    expect(host.state).toBe("serving");

    const stored = await getDb().then((db) =>
      db.tool.findMany({ where: { sourceId: source.id }, orderBy: { nativeName: "asc" } }),
    );
    expect(stored.map((t) => [t.nativeName, t.compatibility])).toEqual([
      [getInvoice, "compatible"],
      [totals, "compatible"],
    ]);

    const client = await agentFor(source.id);
    const { tools } = await client.listTools();
    const listed = tools.find((t) => t.name === getInvoice);
    // The zod schema as JSON Schema, without a $schema member to cost the identity's budget.
    expect(listed?.inputSchema).toEqual({
      type: "object",
      properties: {
        invoiceId: { type: "string", description: "Invoice id, e.g. inv_42" },
        withLines: { type: "boolean", default: false },
      },
      required: ["invoiceId"],
    });
    expect(listed).toMatchObject({ title: "Get invoice", annotations: { readOnlyHint: true } });

    const answer = await call(client, getInvoice, { invoiceId: "inv_42", withLines: true });
    expect(answer.isError).toBeFalsy();
    expect(text(answer)).toBe("Invoice inv_42: 120.00 EUR, paid, 2 lines (call true).");
    // A Tool with an output schema is listed with it, so its value also arrives as
    // structuredContent (the SDK client refuses a result without it).
    expect(tools.find((t) => t.name === totals)?.outputSchema).toMatchObject({ type: "object" });
    const summed = await call(client, totals, { customerId: "cus_1" });
    const value = { customerId: "cus_1", total: 240.5, currency: "EUR" };
    expect(JSON.parse(text(summed))).toEqual(value);
    expect(summed.structuredContent).toEqual(value);

    // Arguments that do not match the schema never reach the host: /mcp checks them against the
    // published input schema first, and the model reads which argument broke which rule.
    const wrong = await call(client, getInvoice, { invoiceId: 42 });
    expect(wrong.isError).toBe(true);
    expect(text(wrong)).toMatch(/^INVALID_ARGUMENTS: invoiceId: must be string\. Correct the arguments and call again/);
  });

  it("fails only the call whose handler throws, with the handler's message", async () => {
    const { source, hostToken } = await newHostSource();
    const { host, log } = sdkHost(hostToken);
    const lookup = unique("lookup");
    host.tool({
      name: lookup,
      description: "Look up an order.",
      input: z.object({ id: z.string() }),
      handler: async ({ id }) => {
        await new Promise((r) => setTimeout(r, 50));
        if (id === "boom") throw new Error("Order service said 503 for boom");
        return `order ${id}`;
      },
    });
    await host.serve();
    const client = await agentFor(source.id);
    const answers = await Promise.all(["a", "boom", "c"].map((id) => call(client, lookup, { id })));
    expect(answers.map((a) => [Boolean(a.isError), text(a)])).toEqual([
      [false, "order a"],
      [true, "Order service said 503 for boom"],
      [false, "order c"],
    ]);
    expect(log.warnings().some((w) => w.includes(lookup) && w.includes("503 for boom"))).toBe(true);
  });

  it("fails only the call whose output is over 1,048,576 characters; an output of exactly that many is delivered", async () => {
    const { source, hostToken } = await newHostSource();
    const { host, log } = sdkHost(hostToken);
    const report = unique("report");
    const max = LIMITS.SDK_RESULT_OUTPUT_CHARS.value;
    host.tool({
      name: report,
      description: "Render a report of a given size.",
      input: z.object({ chars: z.number().int() }),
      // Characters count, not bytes: "é" is two bytes of UTF-8.
      handler: ({ chars }) => (chars > max ? "é" : "x").repeat(chars),
    });
    await host.serve();
    const client = await agentFor(source.id);
    const [over, exact, small] = await Promise.all([
      call(client, report, { chars: max + 1 }),
      call(client, report, { chars: max }),
      call(client, report, { chars: 3 }),
    ]);
    expect(over.isError).toBe(true);
    expect(text(over)).toMatch(/^TOOL_RESULT_TEXT_TOO_LONG: .*1,048,577 characters.*at most 1,048,576/);
    expect(exact.isError).toBeFalsy();
    expect(text(exact)).toHaveLength(max);
    expect(text(small)).toBe("xxx");
    expect(log.warnings().some((w) => w.includes("TOOL_RESULT_TEXT_TOO_LONG"))).toBe(true);
    // The SDK found it, and sent the code with it: the call log records it as Quartermaster's own finding.
    await flushCallLog();
    const db = await getDb();
    const logged = await db.callLog.findMany({
      where: { toolName: report },
      select: { outcome: true, failureCode: true },
    });
    expect(logged.map((r) => `${r.outcome} ${r.failureCode}`).sort()).toEqual([
      "failed TOOL_RESULT_TEXT_TOO_LONG",
      "ok null",
      "ok null",
    ]);
  });

  it("sends results in batches, each submission within 4 MiB", async () => {
    const { source, hostToken } = await newHostSource();
    const { host } = sdkHost(hostToken, { concurrency: 16 });
    const big = unique("big");
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    host.tool({
      name: big,
      description: "A large answer.",
      input: z.object({ i: z.number() }),
      handler: async ({ i }) => {
        started++;
        await gate;
        return `${i}:${"x".repeat(1_000_000)}`;
      },
    });
    await host.serve();
    const client = await agentFor(source.id);
    const before = submissions().length;
    const answers = Promise.all(Array.from({ length: 8 }, (_, i) => call(client, big, { i })));
    await expect.poll(() => started, { timeout: 20_000 }).toBe(8);
    release(); // all eight finish together: about 8 MB of results to send
    const results = await answers;
    expect(results.map((r) => text(r).split(":")[0])).toEqual(["0", "1", "2", "3", "4", "5", "6", "7"]);
    const sent = submissions().slice(before);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.length).toBeLessThan(8);
    for (const s of sent) expect(s.bytes).toBeLessThanOrEqual(LIMITS.SDK_RESULT_SUBMISSION_BYTES.value);
  });

  it("runs at most `concurrency` handlers at once and still answers every call", async () => {
    const { source, hostToken } = await newHostSource();
    const { host } = sdkHost(hostToken, { concurrency: 2 });
    const slow = unique("slow");
    let running = 0;
    let most = 0;
    host.tool({
      name: slow,
      description: "Slow work.",
      input: z.object({ i: z.number() }),
      handler: async ({ i }) => {
        most = Math.max(most, ++running);
        // Holds until a second handler runs beside it (at most 2 s): a handler that ended at
        // once could end before the host's next collection reached a loaded server, and the
        // test would measure the machine's load instead of the host's concurrency.
        const until = Date.now() + 2_000;
        while (running < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
        await new Promise((r) => setTimeout(r, 50));
        running--;
        return `done ${i}`;
      },
    });
    await host.serve();
    const client = await agentFor(source.id);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => call(client, slow, { i })));
    expect(answers.map(text)).toEqual(Array.from({ length: 6 }, (_, i) => `done ${i}`));
    expect(most).toBe(2);
  });

  it("survives the product restarting mid-run: a call made while it was down, and one in flight, are both answered", async () => {
    const { source, hostToken } = await newHostSource();
    // Two instances of the product on one database: the agent's stays up, the host's restarts.
    const hostSide = await startProduct();
    cleanup.push(() => hostSide.close());
    const { host, log } = sdkHost(hostToken, {}, hostSide.url);
    const work = unique("work");
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    host.tool({
      name: work,
      description: "Work that may wait on a gate.",
      input: z.object({ job: z.string(), wait: z.boolean().default(false) }),
      handler: async ({ job, wait }) => {
        if (wait) await gate;
        return `finished ${job}`;
      },
    });
    await host.serve();
    const client = await agentFor(source.id);
    expect(text(await call(client, work, { job: "warm-up" }))).toBe("finished warm-up");

    const inFlight = call(client, work, { job: "in-flight", wait: true });
    const db = await getDb();
    await expect
      .poll(() => db.toolCall.count({ where: { sourceId: source.id, status: "delivered" } }), { timeout: 10_000 })
      .toBe(1);
    const registeredBefore = hostSide.seen.filter((r) => r.path.endsWith("/registration")).length;

    await hostSide.stop(); // every connection cut, as a dying process cuts them
    const madeWhileDown = call(client, work, { job: "while-down" });
    await expect
      .poll(() => db.toolCall.count({ where: { sourceId: source.id, status: "pending" } }), { timeout: 10_000 })
      .toBe(1);
    release(); // the in-flight call finishes while its result cannot be sent
    await new Promise((r) => setTimeout(r, 700));
    expect(host.state).toBe("reconnecting");
    await hostSide.start();

    expect(text(await madeWhileDown)).toBe("finished while-down");
    expect(text(await inFlight)).toBe("finished in-flight");
    await expect.poll(() => host.state).toBe("serving");
    // It registered again on reconnecting: a restored Quartermaster gets the host's list back.
    expect(hostSide.seen.filter((r) => r.path.endsWith("/registration")).length).toBeGreaterThan(registeredBefore);
    expect(log.lines.some((l) => l.message.startsWith("Lost Quartermaster"))).toBe(true);
    expect(log.lines.some((l) => l.message.startsWith("Reconnected"))).toBe(true);
  });

  it("close() stops collecting, lets calls in flight finish and sends their results, then stops heartbeats", async () => {
    const { source, hostToken } = await newHostSource();
    const { host } = sdkHost(hostToken);
    const drain = unique("drain");
    let started = 0;
    host.tool({
      name: drain,
      description: "Takes a while.",
      input: z.object({ i: z.number() }),
      handler: async ({ i }) => {
        started++;
        await new Promise((r) => setTimeout(r, 400));
        return `drained ${i}`;
      },
    });
    await host.serve();
    const client = await agentFor(source.id);
    const answers = Promise.all([0, 1, 2].map((i) => call(client, drain, { i })));
    await expect.poll(() => started, { timeout: 10_000 }).toBe(3);
    await host.close();
    expect(host.state).toBe("closed");
    expect((await answers).map(text)).toEqual(["drained 0", "drained 1", "drained 2"]);

    // Closed means silent: no collection, heartbeat or anything else afterwards.
    const seen = product.seen.length;
    const db = await getDb();
    const late = await db.toolCall.create({
      data: { sourceId: source.id, nativeName: drain, arguments: '{"i":9}', deadline: new Date(Date.now() + 60_000) },
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(product.seen.length).toBe(seen);
    expect((await db.toolCall.findUniqueOrThrow({ where: { id: late.id } })).status).toBe("pending");
  });

  it("close() fails a call still running after the grace period, at once, and aborts its handler", async () => {
    const { source, hostToken } = await newHostSource();
    const { host } = sdkHost(hostToken);
    const stuck = unique("stuck");
    let aborted = false;
    let started = false;
    host.tool({
      name: stuck,
      description: "Never finishes by itself.",
      input: z.object({}),
      handler: (_args, { signal }) =>
        new Promise<string>((resolve) => {
          started = true;
          signal.addEventListener("abort", () => {
            aborted = true;
            resolve("too late");
          });
        }),
    });
    await host.serve();
    const client = await agentFor(source.id);
    const answer = call(client, stuck);
    await expect.poll(() => started, { timeout: 10_000 }).toBe(true);
    const t0 = Date.now();
    await host.close({ graceMs: 200 });
    const result = await answer;
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("shut down before this call finished");
    expect(aborted).toBe(true);
  });

  it("refuses a Tool over a limit with the server's code and message before sending any request", async () => {
    const { source, hostToken } = await newHostSource();
    const before = product.seen.length;
    const { host } = sdkHost(hostToken);
    const fat = z.object({ q: z.string().describe("d".repeat(16 * 1024)) });
    let refused: unknown;
    try {
      host.tool({ name: "fat_tool", description: "Too much schema.", input: fat, handler: () => "" });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(RegistrationError);
    const error = refused as RegistrationError;
    expect(error).toMatchObject({ code: "TOOL_SCHEMA_TOO_LARGE", status: 422, local: true });
    expect(error.tool).toBe("fat_tool");
    expect(error.limit).toBe(16_384);
    expect(error.measured).toBeGreaterThan(16_384);

    // The server refuses the same definition with the same code, message and details.
    const { $schema: _, ...inputSchema } = z.toJSONSchema(fat, { io: "input" });
    const server = await registerTools((await authenticateToolHost(hostToken))!, {
      tools: [{ name: "fat_tool", description: "Too much schema.", inputSchema }],
    }).catch((e: unknown) => e);
    expect(server).toMatchObject({ code: error.code, message: error.message, details: error.details });

    // A list over the Tool ceiling: refused by serve(), before any request.
    const many = sdkHost(hostToken).host;
    for (let i = 0; i <= LIMITS.TOOLS_PER_SOURCE.value; i++)
      many.tool({ name: `t${i}`, description: "", input: z.object({}), handler: () => "" });
    await expect(many.serve()).rejects.toMatchObject({
      name: "RegistrationError",
      code: "TOO_MANY_TOOLS",
      status: 422,
      local: true,
      details: { measured: 4097, limit: 4096 },
    });
    expect(many.state).toBe("closed");
    expect(product.seen.length).toBe(before);
    expect((await getDb().then((db) => db.source.findUniqueOrThrow({ where: { id: source.id } }))).toolCount).toBe(0);
  }, 60_000);

  it("publishes a Tool with a reserved argument as Schema unsupported, serving the rest, and warns how to fix it", async () => {
    const { source, hostToken } = await newHostSource();
    const { host, log } = sdkHost(hostToken);
    const refund = unique("refund_payment");
    const ledger = unique("export_ledger");
    const invoice = unique("get_invoice");
    host
      .tool({
        name: refund,
        description: "Refund a payment.",
        input: z.object({ paymentId: z.string(), __tenant: z.string() }),
        handler: () => "refunded",
      })
      .tool({
        name: ledger,
        description: "Export rows.",
        input: z.array(z.string()),
        handler: (rows) => rows.join(","),
      })
      .tool({
        name: invoice,
        description: "Read one invoice.",
        input: z.object({ id: z.string() }),
        handler: () => "ok",
      });
    // serve() resolves with what Quartermaster registered and offers, and why the rest is not offered.
    const summary = await host.serve();
    expect(summary).toMatchObject({
      sourceId: source.id,
      registered: [refund, ledger, invoice],
      offered: [invoice],
      added: 3,
      paused: false,
      heartbeatTimeoutSeconds: 60,
      heartbeatIntervalMs: 20_000,
    });
    expect(summary.notOffered.map((t) => [t.tool, t.state])).toEqual([
      [ledger, "input_not_object"],
      [refund, "schema_unsupported"],
    ]);

    const db = await getDb();
    // The registration said what the host runs; the Source shows it.
    expect((await db.source.findUniqueOrThrow({ where: { id: source.id } })).hostSoftware).toBe(
      `@quartermaster/tool-host ${SDK_VERSION}`,
    );
    const stored = await db.tool.findMany({ where: { sourceId: source.id }, orderBy: { nativeName: "asc" } });
    expect(Object.fromEntries(stored.map((t) => [t.nativeName, t.compatibility]))).toEqual({
      [refund]: "schema_unsupported",
      [ledger]: "input_not_object",
      [invoice]: "compatible",
    });
    const warning = log.warnings().find((w) => w.includes(refund));
    expect(warning).toContain("Schema unsupported".toLowerCase().replace(" ", "_"));
    expect(warning).toContain('Rename "__tenant"');
    expect(log.warnings().find((w) => w.includes(ledger))).toContain('"type": "object"');

    const client = await agentFor(source.id);
    expect((await client.listTools()).tools.map((t) => t.name).filter((t) => !builtInTool(t))).toEqual([invoice]);
    expect(text(await call(client, invoice, { id: "1" }))).toBe("ok");
  });

  it("rejects serve() with an AuthenticationError for a wrong token, and keeps trying while Quartermaster is down", async () => {
    const { host } = sdkHost("qm_host_not-a-real-token");
    host.tool({ name: unique("x"), description: "", input: z.object({}), handler: () => "" });
    await expect(host.serve()).rejects.toBeInstanceOf(AuthenticationError);

    // Nothing listens yet: serve() waits, backing off, and registers once the product is up.
    const { source, hostToken } = await newHostSource();
    const later = await startProduct();
    const port = new URL(later.url).port;
    await later.stop();
    const { host: patient, log } = sdkHost(hostToken, {}, `http://127.0.0.1:${port}`);
    patient.tool({ name: unique("y"), description: "", input: z.object({}), handler: () => "" });
    const serving = patient.serve();
    await expect.poll(() => log.warnings().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(patient.state).toBe("starting");
    await later.start();
    cleanup.push(() => later.close());
    await serving;
    expect(patient.state).toBe("serving");
    expect((await getDb().then((db) => db.source.findUniqueOrThrow({ where: { id: source.id } }))).toolCount).toBe(1);
  });

  it("stops for good, telling onError, when its token is rotated while it serves", async () => {
    const { api, source, hostToken } = await newHostSource(15); // heartbeats every 5 s
    const errors: unknown[] = [];
    const { host, log } = sdkHost(hostToken, { onError: (error) => errors.push(error) });
    host.tool({ name: unique("z"), description: "", input: z.object({}), handler: () => "" });
    await host.serve();
    await api.sources.rotateHostToken({ id: source.id });
    await expect.poll(() => host.state, { timeout: 15_000, interval: 200 }).toBe("closed");
    expect(errors).toEqual([expect.any(AuthenticationError)]);
    expect(log.lines.some((l) => l.level === "error" && l.message.includes("rotated"))).toBe(true);
  }, 30_000);

  it("keeps serving a paused host's Tools and registers its list with a heartbeat once an operator resumes it", async () => {
    // Heartbeats every 5 s (a third of the shortest timeout).
    const { api, source, hostToken } = await newHostSource(15);
    const first = unique("first");
    await registerTools((await authenticateToolHost(hostToken))!, {
      tools: [{ name: first, inputSchema: { type: "object" } }],
    });
    await api.sources.update({ id: source.id, paused: true });
    const { host, log } = sdkHost(hostToken);
    const second = unique("second");
    host.tool({ name: second, description: "New.", input: z.object({}), handler: () => "new" });
    await host.serve();
    expect(host.state).toBe("serving");
    expect(log.warnings().some((w) => w.includes("paused"))).toBe(true);
    const db = await getDb();
    const names = async () => (await db.tool.findMany({ where: { sourceId: source.id } })).map((t) => t.nativeName);
    expect(await names()).toEqual([first]);

    await api.sources.update({ id: source.id, paused: false });
    await expect.poll(names, { timeout: 15_000, interval: 250 }).toEqual([second]);
  }, 30_000);
});
