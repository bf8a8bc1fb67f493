import { randomBytes } from "node:crypto";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type RunningServer, simpleTool, startSdkServer } from "../tests/helpers/mcp-servers";
import { expect, test, trpc } from "./fixtures";

// Model-facing names are unique catalog-wide, and other tests publish a lookup_order too.
const tool = `lookup_order_${randomBytes(3).toString("hex")}`;
let server: RunningServer;
test.beforeAll(async () => {
  server = await startSdkServer({
    catalog: () => [simpleTool(tool, { description: "Look up an order by its number." })],
    onCall: (name, args) => ({ content: [{ type: "text", text: `${name} found ${String(args.query)}` }] }),
  });
});
test.afterAll(async () => {
  await server?.close();
});

test("an operator creates an agent token in the console, and an agent uses it at /mcp to find and call its Tools", async ({
  page,
  baseURL,
}) => {
  const source = await trpc(page, "sources.createMcpConnection", {
    name: `Orders ${randomBytes(2).toString("hex")}`,
    url: server.url,
  });
  expect((await trpc(page, "sources.checkNow", { id: source.id })).status).toBe("succeeded");
  const identity = await trpc(page, "identities.create", { name: `mcp-e2e-${randomBytes(2).toString("hex")}` });
  await trpc(page, "identities.assignSource", { identityId: identity.id, sourceId: source.id });

  await page.goto(`/agents/${identity.id}?tab=tokens`);
  await page.getByRole("button", { name: "Create token" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("e2e agent");
  await dialog.getByRole("button", { name: "Create token" }).click();
  const token = ((await dialog.getByTestId("secret-value").textContent()) ?? "").trim();
  expect(token).toMatch(/^qm_agent_/);
  await expect(dialog).toContainText(`${baseURL}/mcp`);

  // The request the dialog's example makes, as an agent's client would send it.
  const listed = await fetch(`${baseURL}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  expect(listed.status).toBe(200);
  // A 2025-era request is answered as JSON or as one Server-Sent Event, as the client accepts.
  const raw = await listed.text();
  const message = raw.startsWith("{") ? raw : (raw.match(/^data: (.*)$/m)?.[1] ?? "null");
  const names = (JSON.parse(message).result.tools as { name: string }[]).map((t) => t.name);
  // The built-in tools lead (server/mcp/tools/registry.ts), then the identity's catalog.
  expect(names).toEqual([
    "briefing",
    "search",
    "get_memories",
    "remember",
    "debrief",
    "handoff",
    "configure_scope",
    "get_facts",
    "threads",
    "review_proposals",
    "find_tools",
    "call_tool",
    tool,
  ]);

  const client = new Client({ name: "e2e-agent", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  try {
    const found = await client.callTool({ name: "find_tools", arguments: { query: "order" } });
    expect((found.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual([tool]);
    const called = await client.callTool({ name: tool, arguments: { query: "A-1001" } });
    expect(called.content).toEqual([{ type: "text", text: `${tool} found A-1001` }]);
    // Arguments that break the Tool's schema are a result the model can read, not a failure.
    const wrong = await client.callTool({ name: tool, arguments: { query: 1001 } });
    expect(wrong.isError).toBe(true);
    // …and says what to do next: correct the arguments, with where the schema is.
    expect(wrong.content).toEqual([
      {
        type: "text",
        text: "INVALID_ARGUMENTS: query: must be string. Correct the arguments and call again; tools/list (or find_tools) carries the Tool's input schema.",
      },
    ]);
    expect(wrong.structuredContent).toMatchObject({ error: { code: "INVALID_ARGUMENTS" } });
    // The identity holds no memory scope yet: the memory tools say so and what to do.
    const remembered = await client.callTool({ name: "remember", arguments: { body: "Order A-1001 shipped." } });
    expect(remembered.isError).toBe(true);
    expect(JSON.stringify(remembered.content)).toContain("holds no grant for any scope");
  } finally {
    await client.close();
  }
});

test("an agent's call to an SDK Tool Host Tool is collected by the host over HTTP and answered", async ({
  page,
  baseURL,
}) => {
  const report = `render_report_${randomBytes(3).toString("hex")}`;
  const { source, hostToken } = await trpc(page, "sources.createToolHost", {
    name: `Reports host ${randomBytes(2).toString("hex")}`,
  });
  const hostHeaders = { authorization: `Bearer ${hostToken}`, "content-type": "application/json" };
  const registered = await fetch(`${baseURL}/api/v1/tool-hosts/registration`, {
    method: "PUT",
    headers: hostHeaders,
    body: JSON.stringify({ tools: [simpleTool(report, { description: "Render a quarterly report." })] }),
  });
  expect(registered.status).toBe(200);
  const identity = await trpc(page, "identities.create", { name: `host-e2e-${randomBytes(2).toString("hex")}` });
  await trpc(page, "identities.assignSource", { identityId: identity.id, sourceId: source.id });
  const { value: token } = await trpc(page, "identities.createToken", { identityId: identity.id, name: "e2e" });

  const client = new Client({ name: "e2e-agent", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  try {
    const answer = client.callTool({ name: report, arguments: { query: "Q3" } });
    const collected = await fetch(`${baseURL}/api/v1/tool-hosts/calls/next?wait=10`, {
      method: "POST",
      headers: hostHeaders,
    });
    expect(collected.status).toBe(200);
    const { calls } = await collected.json();
    expect(calls).toEqual([expect.objectContaining({ tool: report, arguments: { query: "Q3" } })]);
    const submitted = await fetch(`${baseURL}/api/v1/tool-hosts/calls/results`, {
      method: "POST",
      headers: hostHeaders,
      body: JSON.stringify({ results: [{ id: calls[0].id, output: "Q3 report: 12 pages." }] }),
    });
    expect(await submitted.json()).toEqual({ delivered: [calls[0].id], refused: [], unknown: [] });
    expect((await answer).content).toEqual([{ type: "text", text: "Q3 report: 12 pages." }]);
  } finally {
    await client.close();
  }
});

test("the demo's SDK Tool Host, a process built with the Tool Host SDK, answers an agent's call through /mcp", async ({
  page,
  baseURL,
}) => {
  // npm start ran it beside the app; it registered its own Tools (a trpc read, then a real call).
  const identities = (await page.request.get("/api/trpc/identities.list").then((r) => r.json())).result.data.json as {
    id: string;
    name: string;
  }[];
  const support = identities.find((i) => i.name === "Support agent (demo)");
  expect(support).toBeTruthy();
  const { value: token } = await trpc(page, "identities.createToken", { identityId: support?.id, name: "e2e demo" });
  const client = new Client({ name: "e2e-agent", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["create_invoice", "get_invoice", "list_customers"]));
    // Registered, but offered to no model: a reserved "__" argument, and a root that is not an object.
    expect(names).not.toContain("refund_payment");
    expect(names).not.toContain("export_ledger");
    const created = await client.callTool({
      name: "create_invoice",
      arguments: { customerId: "cus_101", lines: [{ sku: "SEAT-STD", quantity: 3 }] },
    });
    const invoice = JSON.parse((created.content as { text: string }[])[0]?.text ?? "{}");
    expect(invoice).toMatchObject({ status: "draft", total: 36, currency: "EUR" });
    const read = await client.callTool({ name: "get_invoice", arguments: { invoiceId: invoice.invoiceId } });
    expect((read.content as { text: string }[])[0]?.text).toContain(`Invoice ${invoice.invoiceId} for cus_101`);
    const missing = await client.callTool({ name: "get_invoice", arguments: { invoiceId: "inv_nope" } });
    expect(missing.isError).toBe(true);
    expect((missing.content as { text: string }[])[0]?.text).toBe("No invoice inv_nope.");
  } finally {
    await client.close();
  }
});
