import { randomBytes } from "node:crypto";
import { type RunningServer, simpleTool, startSdkServer } from "../tests/helpers/mcp-servers";
import { expect, saveScreenshot, test, trpc } from "./fixtures";

const servers: RunningServer[] = [];
test.afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

test("an operator switches an identity to a selection, pins two Tools and sees listed vs held", async ({ page }) => {
  const tag = randomBytes(2).toString("hex");
  const tools = Array.from({ length: 12 }, (_, i) => simpleTool(`exposed_${tag}_${i}`));
  const server = await startSdkServer({ catalog: () => tools });
  servers.push(server);
  const source = await trpc(page, "sources.createMcpConnection", { name: `Exposure ${tag}`, url: server.url });
  expect((await trpc(page, "sources.checkNow", { id: source.id })).status).toBe("succeeded");
  const identity = await trpc(page, "identities.create", { name: `exposure-${tag}` });
  await trpc(page, "identities.assignSource", { identityId: identity.id, sourceId: source.id });

  await page.goto(`/agents/${identity.id}`);
  await page.getByRole("tab", { name: "Budget" }).click();
  // Twelve small Tools fit the default listing budget: auto lists them all.
  await expect(page.getByTestId("listing-mode")).toHaveText("Lists every held Tool");
  await expect(page.getByTestId("listing-listed")).toContainText("12 Tools");

  // The control shows the saved exposure: it moves once the server has it.
  await page.getByText("Selection", { exact: true }).click();
  await expect(page.getByRole("radio", { name: "Selection" })).toBeChecked();
  await expect(page.getByTestId("listing-mode")).toHaveText("Lists a selection");
  await expect(page.getByTestId("listing-listed")).toContainText("0 Tools");
  await expect(page.getByTestId("listing-held")).toContainText("12 Tools");

  for (const n of [3, 7]) {
    await page.getByLabel("Pin a held Tool by name").fill(`exposed_${tag}_${n}`);
    await page.getByRole("button", { name: "Pin", exact: true }).click();
    await expect(page.getByTestId("pinned-tools")).toContainText(`exposed_${tag}_${n}`);
  }
  await expect(page.getByTestId("listing-listed")).toContainText("2 Tools");
  await expect(page.getByRole("img", { name: "Listed 2 of 12 held Tools" })).toBeVisible();
  await page.getByLabel("Pin a held Tool by name").fill("not_a_tool");
  await page.getByRole("button", { name: "Pin", exact: true }).click();
  await expect(page.getByText('holds no Tool named "not_a_tool"')).toBeVisible();
  await saveScreenshot(page, "identity-listing");

  // Pin and unpin on the holdings list: the button says which state the Tool is in.
  await page.goto(`/agents/${identity.id}?tab=holdings`);
  const row = (n: number) =>
    page
      .getByTestId("holding-row")
      .filter({ hasText: `exposed_${tag}_${n}` })
      .first();
  await expect(row(3).getByRole("button", { name: `Unpin exposed_${tag}_3` })).toHaveAttribute("aria-pressed", "true");
  await row(5)
    .getByRole("button", { name: `Pin exposed_${tag}_5` })
    .click();
  await expect(row(5).getByRole("button", { name: `Unpin exposed_${tag}_5` })).toBeVisible();
  await row(3)
    .getByRole("button", { name: `Unpin exposed_${tag}_3` })
    .click();
  await expect(row(3).getByRole("button", { name: `Pin exposed_${tag}_3` })).toHaveAttribute("aria-pressed", "false");

  // And on the Tool page, per identity that holds it.
  await row(9)
    .getByRole("link", { name: `exposed_${tag}_9` })
    .click();
  await expect(page.getByRole("heading", { name: `exposed_${tag}_9` })).toBeVisible();
  const holder = page.getByTestId("holder").filter({ hasText: `exposure-${tag}` });
  await holder.getByRole("button", { name: `Pin for exposure-${tag}` }).click();
  await expect(holder.getByRole("button", { name: `Unpin for exposure-${tag}` })).toBeVisible();

  // The identity now lists 5, 7 and 9, in the order they were pinned.
  await page.goto(`/agents/${identity.id}`);
  await page.getByRole("tab", { name: "Budget" }).click();
  await expect(page.getByTestId("pinned-tools")).toHaveText(
    new RegExp(`exposed_${tag}_7.*exposed_${tag}_5.*exposed_${tag}_9`),
  );
  await expect(page.getByTestId("listing-listed")).toContainText("3 Tools");
  await expect(page.getByRole("img", { name: "Listed 3 of 12 held Tools" })).toBeVisible();
});
