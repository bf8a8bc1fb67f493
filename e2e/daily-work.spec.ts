/**
 * The console for daily work (issue 15): connecting an agent in one paste, what is broken
 * first, adding a Connection with a test first, and trying a Tool.
 */
import { randomBytes } from "node:crypto";
import { expect, test, trpc } from "./fixtures";

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
  await dialog.getByRole("button", { name: "Done" }).click();

  // The token's prefix, with one ellipsis.
  const prefix = page.getByTestId("agent-token-row").getByText(/^qm_agent_/);
  await expect(prefix).toHaveText(/^qm_agent_\w{6}…$/);
});
