/**
 * What stood in a new user's way (issue 30, item 11): a deep link lost across sign-in,
 * navigation offering pages a role cannot open, a page left on "Loading…" when the network
 * went quiet, and the identities list counting losses over another window than the page.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, trpcQuery } from "./fixtures";

function demoPerson(role: string): { email: string; password: string } {
  const saved = JSON.parse(readFileSync(path.resolve(".data-e2e", "demo-admin.json"), "utf8"));
  const person = (saved.people as { role: string; email: string; password: string }[]).find((p) => p.role === role);
  if (!person) throw new Error(`no demo ${role}`);
  return person;
}

async function signInHere(page: import("@playwright/test").Page, creds: { email: string; password: string }) {
  await page.getByLabel("Email").fill(creds.email);
  await page.getByLabel("Password").fill(creds.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("a deep link survives sign-in; a link to another site does not", async ({ page, browser }) => {
  const sources = await trpcQuery<{ id: string; name: string }[]>(page, "sources.list", {});
  const wiki = sources.find((s) => s.name === "Team wiki (demo)");
  expect(wiki).toBeDefined();
  const deep = `/tools/sources/${wiki?.id}?tab=checks`;

  const signedOut = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const visitor = await signedOut.newPage();
  await visitor.goto(deep);
  await expect(visitor).toHaveURL(/\/sign-in\?next=/);
  await signInHere(visitor, JSON.parse(readFileSync(path.resolve(".data-e2e", "demo-admin.json"), "utf8")));
  await expect(visitor).toHaveURL(new RegExp(`${deep.replace("?", "\\?")}$`));
  await expect(visitor.getByRole("heading", { level: 1, name: "Team wiki (demo)" })).toBeVisible();

  // Signed in already, an off-site "next" lands on the catalog, never on the other site.
  await visitor.goto("/sign-in?next=https%3A%2F%2Fevil.example%2F");
  await expect(visitor).toHaveURL(/\/tools\/catalog$/);
  await visitor.goto("/sign-in?next=%2F%2Fevil.example");
  await expect(visitor).toHaveURL(/\/tools\/catalog$/);
  await signedOut.close();
});

test("a viewer's navigation offers no page only an admin may open", async ({ browser }) => {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const viewer = await context.newPage();
  await viewer.goto("/sign-in");
  await signInHere(viewer, demoPerson("viewer"));
  await expect(viewer).toHaveURL(/\/tools\/catalog/);
  const nav = viewer.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Audit log" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Catalog" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Users" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "API keys" })).toHaveCount(0);
  await context.close();
});

test("an identity's page answers even when its request never does: an error with Retry, not Loading… for good", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const identities = await trpcQuery<{ id: string; name: string }[]>(page, "identities.list", {});
  const research = identities.find((i) => i.name === "Research agent (demo)");
  // The network goes quiet for this one read: the request is held, never answered.
  await page.route(/\/api\/trpc\/[^?]*identities\.get/, () => {});
  await page.goto(`/agents/${research?.id}`);
  const failed = page.getByTestId("error-state");
  await expect(failed).toContainText("did not answer", { timeout: 60_000 });
  await page.unroute(/\/api\/trpc\/[^?]*identities\.get/);
  await failed.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Research agent (demo)" })).toBeVisible();
});

test("the identities list counts losses over the same window as Lost recently, under a heading that fits", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/agents");
  const header = page.getByRole("columnheader", { name: "Lost recently" });
  await expect(header).toHaveAttribute("title", /last 30 days/);
  const box = await header.evaluate((th) => {
    const range = document.createRange();
    range.selectNodeContents(th);
    return { lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size };
  });
  expect(box.lines, "the heading wraps").toBe(1);
  await page.getByTestId("identity-row").first().getByRole("link").first().click();
  await page.getByRole("tab", { name: /Lost recently/ }).click();
  await expect(page.getByTestId("lost-summary")).toContainText("in the last 30 days");
});

test("an identity holding a failing Source reads Degraded with the Source named, not OK", async ({ page }) => {
  await page.goto("/agents");
  const row = page.getByTestId("identity-row").filter({ hasText: "Research agent (demo)" });
  await expect(row.getByTestId("identity-degraded")).toContainText("Degraded: Team wiki (demo) failing");
  await row.getByRole("link", { name: "Research agent (demo)" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Research agent (demo)" })).toBeVisible();
  await expect(page.getByTestId("identity-degraded")).toContainText("Team wiki (demo)");
});
