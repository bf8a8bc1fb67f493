import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { type RunningServer, simpleTool, startSdkServer, type ToolDef } from "../tests/helpers/mcp-servers";
import { expect, saveScreenshot, seriousA11yViolations, signIn, test, trpc } from "./fixtures";

let server: RunningServer;
let catalog: ToolDef[] = [simpleTool("lookup_order"), simpleTool("cancel_order"), simpleTool("refund_order")];
test.beforeAll(async () => {
  server = await startSdkServer({ catalog: () => catalog });
});
test.afterAll(async () => {
  await server?.close();
});

async function usedBytes(page: Page): Promise<number> {
  return Number(
    await page
      .getByRole("meter", { name: /^Budget used by/ })
      .first()
      .getAttribute("aria-valuenow"),
  );
}

async function assign(page: Page, sourceName: string) {
  await page.getByRole("button", { name: "Assign Source" }).first().click();
  const dialog = page.getByRole("dialog");
  const option = dialog.getByLabel("Source").locator("option", { hasText: sourceName });
  await dialog.getByLabel("Source").selectOption((await option.getAttribute("value")) ?? "");
  await expect(dialog.getByTestId("assignment-preview")).toContainText("projected usage");
  await dialog.getByRole("button", { name: "Assign", exact: true }).click();
  await expect(dialog).toBeHidden();
}

test("an operator creates an identity, assigns two Sources, sees the budget bar move, and sees a loss after a re-check", async ({
  page,
  browser,
}) => {
  // Set-up as the admin: an operator, and a Connection to a loopback MCP server.
  const email = `agent-op-${randomBytes(3).toString("hex")}@example.test`;
  const password = "operator-password-456";
  await trpc(page, "users.create", { email, name: "Ada Operator", role: "operator", password });
  const orders = await trpc(page, "sources.createMcpConnection", {
    name: `Orders ${randomBytes(2).toString("hex")}`,
    url: server.url,
  });
  expect((await trpc(page, "sources.checkNow", { id: orders.id })).status).toBe("succeeded");

  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const op = await context.newPage();
  await signIn(op, { email, password });
  await op.goto("/agents");
  await op.getByRole("button", { name: "New identity" }).first().click();
  const dialog = op.getByRole("dialog");
  const name = `triage-${randomBytes(2).toString("hex")}`;
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Instructions (optional)").fill("Triage order problems. Be brief.");
  await dialog.getByRole("button", { name: "Create identity" }).click();
  await expect(op).toHaveURL(/\/agents\/[^/?]+\?tab=sources/);
  await expect(op.getByRole("heading", { level: 1, name })).toBeVisible();

  const start = await usedBytes(op);
  await assign(op, orders.name);
  await expect.poll(() => usedBytes(op)).toBeGreaterThan(start);
  const afterOne = await usedBytes(op);
  await assign(op, "Everything (demo)");
  await expect.poll(() => usedBytes(op)).toBeGreaterThan(afterOne);
  expect(await seriousA11yViolations(op)).toEqual([]);
  await saveScreenshot(op, "agent-identity-sources");

  // The Source drops a Tool; after a re-check the identity shows the loss and why.
  catalog = catalog.filter((t) => t.name !== "refund_order");
  await op.goto(`/tools/sources/${orders.id}`);
  await op.getByRole("button", { name: "Check now" }).click();
  await expect(op.getByTestId("check-progress")).toContainText("Check succeeded", { timeout: 30_000 });
  await op.goto("/agents");
  await op.getByRole("link", { name }).click();
  await op.getByRole("tab", { name: /Lost recently/ }).click();
  const lost = op.getByTestId("lost-recently");
  await expect(lost).toContainText("refund_order");
  await expect(lost).toContainText("Removed from its Source's catalog");
  await expect(op.getByTestId("lost-summary")).toContainText("Lost 1 Tool");
  expect(await seriousA11yViolations(op)).toEqual([]);
  await saveScreenshot(op, "agent-identity-lost-recently");
  await context.close();
});
