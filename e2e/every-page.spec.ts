/**
 * Every console page, as a new user meets it: no serious accessibility violation in the
 * light or the dark theme, and nothing wider than a 390 px phone screen. Each view is
 * saved as a screenshot (e2e-artifacts/screenshots/).
 */

import type { Page } from "@playwright/test";
import { NAV } from "@/components/layout/nav";
import { expect, saveScreenshot, seriousA11yViolations, test, trpcQuery } from "./fixtures";

/** The console's pages: every navigation entry and one of each detail page, from the demo. */
async function everyPage(page: Page): Promise<{ name: string; href: string }[]> {
  const pages = NAV.flatMap((s) => s.items).map((i) => ({ name: i.href.slice(1).replaceAll("/", "-"), href: i.href }));
  const sources = await trpcQuery<{ id: string; name: string }[]>(page, "sources.list", {});
  const wiki = sources.find((s) => s.name === "Team wiki (demo)") ?? sources[0];
  if (wiki) pages.push({ name: "source", href: `/tools/sources/${wiki.id}` });
  const tools = await trpcQuery<{ items: { id: string }[] }>(page, "catalog.listTools", { search: "refund_payment" });
  if (tools.items[0]) pages.push({ name: "tool", href: `/tools/catalog/${tools.items[0].id}` });
  const identities = await trpcQuery<{ id: string; name: string }[]>(page, "identities.list", {});
  const research = identities.find((i) => i.name === "Research agent (demo)") ?? identities[0];
  if (research) pages.push({ name: "identity", href: `/agents/${research.id}` });
  const scopes = await trpcQuery<{ id: string }[]>(page, "scopes.list", undefined);
  const scope = scopes[0];
  if (scope) {
    pages.push({ name: "scope", href: `/memory/scopes/${scope.id}` });
    const hits = await trpcQuery<{ hits: { id: string }[] }>(page, "memories.search", { scopeId: scope.id, limit: 1 });
    if (hits.hits[0]) pages.push({ name: "memory", href: `/memory/memories/${hits.hits[0].id}` });
    const threads = await trpcQuery<{ items: { id: string }[] }>(page, "threads.list", { scopeId: scope.id, limit: 1 });
    if (threads.items[0]) pages.push({ name: "thread", href: `/memory/threads/${threads.items[0].id}` });
  }
  return pages;
}

async function settled(page: Page, href: string) {
  await page.goto(href);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByTestId("loading-state")).toHaveCount(0);
}

test("every page has no serious accessibility violation, in the light and the dark theme", async ({ page }) => {
  test.setTimeout(300_000);
  const pages = await everyPage(page);
  expect(pages.length).toBeGreaterThanOrEqual(16);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const p of pages) {
      await settled(page, p.href);
      await expect(page.locator("html")).toHaveClass(scheme === "dark" ? /dark/ : /^(?!.*dark)/);
      expect(await seriousA11yViolations(page), `${scheme} ${p.href}`).toEqual([]);
      await saveScreenshot(page, `${scheme}-${p.name}`);
    }
  }
});

test("no page is wider than a 390 px phone screen, and the navigation folds behind a Menu button", async ({ page }) => {
  test.setTimeout(300_000);
  const pages = await everyPage(page);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const p of pages) {
    await settled(page, p.href);
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
      widest: [...document.querySelectorAll("body *")]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
        // What a scrolling frame clips does not widen the page: name only what sticks out.
        .filter((el) => {
          for (let a = el.parentElement; a; a = a.parentElement) {
            if (["auto", "scroll", "hidden"].includes(getComputedStyle(a).overflowX)) return false;
          }
          return getComputedStyle(el).position !== "fixed";
        })
        .slice(0, 3)
        .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)}`),
    }));
    // Soft: one run names every page that is too wide, not just the first.
    expect
      .soft(widths.page, `${p.href} is ${widths.page} px wide: ${widths.widest.join(", ")}`)
      .toBeLessThanOrEqual(widths.viewport);
    await saveScreenshot(page, `390-${p.name}`);
  }

  // The navigation: folded, then open, then folded again after choosing a page.
  await settled(page, "/tools/catalog");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav).toBeHidden();
  await page.getByRole("button", { name: "Menu" }).click();
  await expect(nav).toBeVisible();
  await expect(page.getByTestId("current-role")).toHaveText("admin");
  await nav.getByRole("link", { name: "Agent Identities" }).click();
  await expect(page).toHaveURL(/\/agents$/);
  await expect(nav).toBeHidden();
  // A table keeps its name and state; the rest opens in the row.
  const row = page.getByTestId("identity-row").first();
  await row.getByText("More").click();
  await expect(row.getByTestId("row-more")).toContainText("Tools held");
});

test("the audit log opens an event in full, with its ids as links", async ({ page }) => {
  await page.goto("/settings/audit-log?action=source.update");
  const first = page.getByTestId("audit-row").first();
  await first.getByRole("button", { name: "source.update" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("audit-event")).toContainText("url");
  const target = dialog.getByRole("link", { name: /^[0-9a-f-]{36}$/ }).first();
  await target.click();
  await expect(page).toHaveURL(/\/tools\/sources\/[0-9a-f-]{36}$/);
});

test("the Users page explains each role", async ({ page }) => {
  await page.goto("/settings/users");
  const roles = page.getByTestId("roles-explained");
  for (const role of ["admin", "operator", "curator", "viewer"]) await expect(roles).toContainText(role);
});
