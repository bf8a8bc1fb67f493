import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
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
  const names = ((await listed.json()).result.tools as { name: string }[]).map((t) => t.name);
  expect(names).toEqual(["find_tools", tool]);

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
