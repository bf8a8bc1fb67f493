/**
 * The console for daily work (issue 15): connecting an agent in one paste, what is broken
 * first, adding a Connection with a test first, and trying a Tool.
 */
import { randomBytes } from "node:crypto";
import { paged, type RunningServer, simpleTool, startRawServer } from "../tests/helpers/mcp-servers";
import { expect, test, trpc } from "./fixtures";

let server: RunningServer;
test.beforeAll(async () => {
  server = await startRawServer(
    paged([simpleTool("lookup_order"), simpleTool("refund_order"), simpleTool("list_orders")], 2),
  );
});
test.afterAll(async () => {
  await server?.close();
});

const suffix = () => randomBytes(3).toString("hex");

test("an operator creates a token and copies a client configuration that lists the identity's Tools", async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  const identity = await trpc(page, "identities.create", { name: `paste-e2e-${suffix()}` });
  await page.goto(`/agents/${identity.id}?tab=tokens`);
  await page.getByRole("button", { name: "Create token" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("cursor on my laptop");
  await dialog.getByRole("button", { name: "Create token" }).click();
  const token = ((await dialog.getByTestId("secret-value").textContent()) ?? "").trim();
  expect(token).toMatch(/^qm_agent_/);

  // Every common client has its form; Cursor's is copied and used as Cursor would use it.
  for (const client of ["Generic", "Claude Desktop", "Cursor", "VS Code", "curl"])
    await expect(dialog.getByRole("tab", { name: client })).toBeVisible();
  await dialog.getByRole("tab", { name: "Cursor" }).click();
  await dialog.getByRole("button", { name: "Copy Cursor configuration" }).click();
  await expect(dialog.getByRole("button", { name: "Copied" })).toBeVisible();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  const server = Object.values(copied.mcpServers)[0] as { url: string; headers: Record<string, string> };
  expect(server.url).toBe(`${baseURL}/mcp`);
  const listed = await fetch(server.url, {
    method: "POST",
    headers: {
      ...server.headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  expect(listed.status).toBe(200);

  await dialog.getByRole("tab", { name: "curl" }).click();
  await expect(dialog.getByTestId("client-config")).toContainText(
    `curl -sS ${baseURL}/mcp -H "Authorization: Bearer ${token}"`,
  );
  await dialog.getByRole("button", { name: "Copy curl command" }).click();
  await expect(dialog.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`Bearer ${token}`);
  await dialog.getByRole("button", { name: "Done" }).click();

  // The token's prefix, with one ellipsis.
  const row = page.getByTestId("agent-token-row");
  const prefix = row.getByText(/^qm_agent_/);
  await expect(prefix).toHaveText(/^qm_agent_[\w-]{6}…$/);

  // Later, any token offers the same snippets: a placeholder where the secret was, never the secret.
  await row.getByRole("button", { name: "Client configuration for cursor on my laptop" }).click();
  const later = page.getByRole("dialog");
  await expect(later.getByTestId("token-placeholder-note")).toContainText((await prefix.textContent()) ?? "");
  await later.getByRole("tab", { name: "VS Code" }).click();
  await later.getByRole("button", { name: "Copy VS Code configuration" }).click();
  await expect(later.getByRole("button", { name: "Copied" })).toBeVisible();
  const vscode = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  expect(Object.values(vscode.servers)[0]).toMatchObject({
    type: "http",
    url: `${baseURL}/mcp`,
    headers: { Authorization: "Bearer <agent-token>" },
  });
  expect(await later.textContent()).not.toContain(token);

  // The demo's own token, created by the seed, has them too.
  await page.goto("/agents");
  await page.getByRole("link", { name: "Research agent (demo)" }).click();
  await page.getByRole("tab", { name: /Tokens/ }).click();
  await page
    .getByRole("button", { name: /^Client configuration for / })
    .first()
    .click();
  await expect(page.getByRole("dialog").getByTestId("client-config")).toContainText("Bearer <agent-token>");
});

test("an operator filters the catalog to Not offerable and sees the offending argument on the Tool's page", async ({
  page,
  baseURL,
}) => {
  const { source, hostToken } = await trpc(page, "sources.createToolHost", { name: `Offerable host ${suffix()}` });
  const registered = await fetch(`${baseURL}/api/v1/tool-hosts/registration`, {
    method: "POST",
    headers: { authorization: `Bearer ${hostToken}`, "content-type": "application/json" },
    body: JSON.stringify({
      tools: [
        { name: "fine_tool", description: "Offered.", inputSchema: { type: "object", properties: {} } },
        {
          name: "reserved_tool",
          description: "Not offered: a reserved argument.",
          inputSchema: { type: "object", properties: { query: { type: "string" }, __secret: { type: "string" } } },
        },
      ],
    }),
  });
  expect(registered.status).toBe(200);

  await page.goto(`/tools/catalog?source=${source.id}`);
  await expect(page.getByTestId("catalog-row")).toHaveCount(2);
  await page.getByLabel("Model compatibility").selectOption({ label: "Not offerable (1)" });
  await expect(page).toHaveURL(/state=not_offerable/);
  await expect(page.getByTestId("catalog-row")).toHaveCount(1);
  await expect(page.getByTestId("catalog-row")).toContainText("reserved_tool");
  await expect(page.getByTestId("catalog-row")).toContainText("Schema unsupported");

  // Sorting by compatibility puts the worst first.
  await page.getByLabel("Model compatibility").selectOption({ index: 0 });
  await page.getByRole("button", { name: "Model compatibility" }).click();
  await expect(page.getByTestId("catalog-row").first()).toContainText("reserved_tool");

  await page.getByTestId("catalog-row").first().getByRole("link", { name: "reserved_tool" }).click();
  const offending = page.getByTestId("offending-argument");
  await expect(offending).toHaveCount(1);
  await expect(offending).toContainText("__secret");
  await expect(page.getByTestId("compatibility-reason")).not.toContainText("__secret");
});

test("an operator follows a failing Source to its hint and its configuration changes since the last good check", async ({
  page,
}) => {
  await page.goto("/tools/sources");
  await page.getByRole("link", { name: "Team wiki (demo)" }).click();
  await expect(page.getByTestId("last-failure")).toBeVisible();
  await expect(page.getByTestId("failure-hint")).toContainText("Check the path");
  const changes = page.getByTestId("changes-since-good");
  await expect(changes).toContainText("source.update");
  await expect(changes).toContainText(/URL: \S+\/mcp → \S+\/wiki\/mcp/);
  // The history marks the failed check on its chart.
  await expect(page.getByTestId("chart-tools").locator("[data-failed]").first()).toBeAttached();
  // Who the failure reaches.
  await expect(page.getByTestId("used-by")).toContainText("Research agent (demo)");

  await page.goto("/agents");
  const research = page.getByTestId("identity-row").filter({ hasText: "Research agent (demo)" });
  await expect(research.getByRole("link", { name: "Team wiki (demo)" })).toBeVisible();
  // Its page charts its budget use over time against its budget.
  await research.getByRole("link", { name: "Research agent (demo)" }).click();
  await expect(page.getByTestId("chart-budget").locator("svg")).toBeVisible();
  await expect(page.getByTestId("chart-budget")).toContainText("budget 4");
});

test("an operator tests a Connection before adding it, lands on its first check and assigns it to an identity", async ({
  page,
}) => {
  await page.goto("/tools/sources");
  await page.getByRole("button", { name: "Add MCP Connection" }).first().click();
  const dialog = page.getByRole("dialog");

  // Every field's problem at once, in plain words.
  await dialog.getByLabel("URL").fill("orders.example.com/mcp");
  await dialog.getByRole("button", { name: "Add MCP Connection" }).click();
  await expect(dialog.getByText("Give the Connection a name.")).toBeVisible();
  await expect(dialog.getByText(/This is not a web address/)).toBeVisible();

  await dialog.getByLabel("URL").fill(server.url);
  await dialog.getByRole("button", { name: "Test connection" }).click();
  const tested = dialog.getByTestId("test-connection");
  await expect(tested).toContainText("The first page lists 2 Tools");
  await expect(tested).toContainText("lookup_order");
  await expect(tested).toContainText("Nothing was saved");

  // The dialog opens on its first field, not on Close.
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Add MCP Connection" }).first().click();
  await expect(dialog.getByLabel("Name")).toBeFocused();

  // A taken name is caught by the test, under the field and without the API's "name:" prefix.
  await dialog.getByLabel("Name").fill("Team wiki (demo)");
  await dialog.getByLabel("URL").fill(server.url);
  await dialog.getByRole("button", { name: "Test connection" }).click();
  await expect(tested).toContainText("The first page lists 2 Tools");
  const nameError = dialog.getByRole("alert").filter({ hasText: "already exists" });
  await expect(nameError).toHaveText('A Source named "Team wiki (demo)" already exists; choose another name.');

  const name = `Orders ${suffix()}`;
  await dialog.getByLabel("Name").fill(name);
  await expect(nameError).toHaveCount(0);
  await dialog.getByRole("button", { name: "Add MCP Connection" }).click();
  await expect(page).toHaveURL(/\/tools\/sources\/[\w-]+\?created=1$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByTestId("source-created")).toBeVisible();
  await expect(page.getByTestId("catalog-state")).toContainText("OK", { timeout: 30_000 });
  // The callout's words follow the check: no "is listing" once it has finished.
  await expect(page.getByTestId("source-created-next")).toContainText("Its first check found 3 Tools.");
  await expect(page.getByTestId("source-created-next")).not.toContainText("is listing");
  await expect(page.getByTestId("check-row").first()).toContainText("On creation");
  // The history charts the check: 3 Tools on the Tools chart.
  await expect(page.getByTestId("chart-tools")).toContainText("latest 3");

  await page.getByRole("button", { name: "Assign to an identity" }).click();
  const assign = page.getByRole("dialog");
  const picker = assign.getByLabel("Agent Identity");
  const support = await picker.locator("option", { hasText: "Support agent (demo)" }).getAttribute("value");
  await picker.selectOption(support ?? "");
  await expect(assign.getByTestId("assignment-preview")).toContainText("+3 Tools");
  await assign.getByRole("button", { name: "Assign" }).click();
  await expect(assign).toBeHidden();
  await expect(page.getByTestId("used-by")).toContainText("Support agent (demo)");
});

test("an operator tries a Tool as an identity and sees its result and the JSON-RPC exchange", async ({ page }) => {
  const get = async <T>(procedure: string, input: unknown): Promise<T> => {
    const res = await page.request.get(
      `/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`,
    );
    return (await res.json()).result.data.json as T;
  };
  const sources = await get<{ id: string; name: string }[]>("sources.list", {});
  const everything = sources.find((s) => s.name === "Everything (demo)");
  const tools = await get<{ items: { id: string; nativeName: string }[] }>("catalog.listTools", {
    sourceId: everything?.id,
    search: "echo",
  });
  const echo = tools.items.find((t) => t.nativeName === "echo");
  expect(echo).toBeTruthy();

  await page.goto(`/tools/catalog/${echo?.id}`);
  const panel = page.getByTestId("try-tool");
  const as = panel.getByLabel("As Agent Identity");
  const research = await as.locator("option", { hasText: "Research agent (demo)" }).getAttribute("value");
  await as.selectOption(research ?? "");
  await panel.getByLabel(/^message/).fill("hello from the console");
  await panel.getByRole("button", { name: "Call Tool" }).click();
  const result = panel.getByTestId("try-result");
  await expect(result.getByTestId("result-blocks")).toContainText("hello from the console");
  await expect(result).toContainText("Research agent (demo)");
  const exchange = result.getByTestId("try-exchange");
  await expect(exchange).toContainText('"method": "tools/call"');
  await expect(exchange).toContainText('"result"');

  // The call is recorded, and the call log marks it as a console try, not the agent's own.
  await page.goto("/settings/audit-log?action=tool.try");
  await expect(page.getByTestId("audit-row").first()).toContainText("echo");
  await page.goto("/tools/calls");
  const call = page.getByTestId("call-row").filter({ hasText: "Research agent (demo)" }).first();
  await expect(call).toContainText("echo");
  await expect(call.getByText("Console try")).toBeVisible();
});
