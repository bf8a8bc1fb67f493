/**
 * Content a user reads, on a 390 px phone and a 1440 px desktop: each list's first row shows
 * its name (not cut to a letter or two) and its state inside the screen, and a selected
 * proposal's detail comes into view. The absence of horizontal scrolling alone (every-page)
 * passed while the catalog's rows filled half a phone with names cut to one letter.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, saveScreenshot, test, trpcQuery } from "./fixtures";

/** A name cut shorter than this is not readable. */
const MIN_CHARS = 8;

/** What of an element the screen shows: its characters in view (estimated from the clip) and where it sits. */
async function shown(locator: Locator) {
  await expect(locator).toBeVisible();
  return locator.evaluate((el) => {
    const text = (el.textContent ?? "").trim();
    const rect = el.getBoundingClientRect();
    // The first clipping box around it: a truncated name is clipped by itself or its cell.
    let clipRight = window.innerWidth;
    for (let a: Element | null = el; a; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (a !== el && style.overflowX !== "visible") clipRight = Math.min(clipRight, a.getBoundingClientRect().right);
    }
    const cut = el.scrollWidth > el.clientWidth + 1;
    const visibleWidth = Math.max(0, Math.min(rect.right, clipRight) - rect.left);
    const fullWidth = cut ? el.scrollWidth : rect.width;
    const chars = fullWidth > 0 ? Math.floor((text.length * Math.min(visibleWidth, fullWidth)) / fullWidth) : 0;
    return {
      text,
      chars: cut || visibleWidth < rect.width - 1 ? chars : text.length,
      left: rect.left,
      right: rect.right,
    };
  });
}

async function expectReadable(page: Page, locator: Locator, what: string, minChars = MIN_CHARS) {
  const s = await shown(locator);
  const width = page.viewportSize()?.width ?? 0;
  expect(s.left, `${what} starts on screen`).toBeGreaterThanOrEqual(0);
  expect(s.right, `${what} ends on screen`).toBeLessThanOrEqual(width + 1);
  expect(s.chars, `${what} “${s.text}” shows ${s.chars} characters`).toBeGreaterThanOrEqual(
    Math.min(minChars, s.text.length),
  );
}

async function noHorizontalScroll(page: Page) {
  const { scroll, viewport } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(scroll, "the page scrolls sideways").toBeLessThanOrEqual(viewport);
}

async function open(page: Page, href: string, rows: string) {
  await page.goto(href);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // Generous: two shared vCPUs under load take a while to first render a page.
  await expect(page.getByTestId(rows).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("Loading rows")).toBeHidden();
}

for (const width of [390, 1440]) {
  test(`at ${width} px each list's rows show a readable name and state, and a chosen proposal's detail is in view`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });

    // The catalog, the landing page: a Tool's name and its compatibility state.
    await open(page, "/tools/catalog", "catalog-row");
    const tool = page.getByTestId("catalog-row").first();
    await expectReadable(page, tool.getByRole("link").first(), "a Tool's name");
    await expectReadable(
      page,
      tool.getByText(/Compatible|Withdrawn|Too long|Invalid|Name/).first(),
      "a Tool's state",
      6,
    );
    await noHorizontalScroll(page);
    await saveScreenshot(page, `readable-${width}-catalog`);

    // Memories: the search box takes a real query, a hit's title and score are in view.
    const scopes: { id: string; name: string }[] = await trpcQuery(page, "scopes.list", undefined);
    const team = scopes.find((s) => s.name === "platform-team");
    await open(page, `/memory/memories?scope=${team?.id}`, "memory-hit");
    const box = await page.getByLabel("Search memories").boundingBox();
    expect(box?.width ?? 0, "the search box").toBeGreaterThanOrEqual(Math.min(300, width - 60));
    await page.getByLabel("Search memories").fill("payments-api webhook signing secret");
    await expect(page.getByTestId("result-summary")).toContainText("best first");
    const hit = page.getByTestId("memory-hit").first();
    await expectReadable(page, hit.getByRole("link").first(), "a memory's title");
    if (width === 1440) {
      // The score's breakdown and the date fit their cells.
      const overflow = await hit.evaluate((row) =>
        [...row.querySelectorAll("td")].map((td) => td.scrollWidth - td.clientWidth).filter((d) => d > 1),
      );
      expect(overflow, "cells cut their content (px over)").toEqual([]);
      await expectReadable(page, hit.locator("time"), "when it happened", 6);
    } else {
      await expect(hit.getByTitle("Score")).toHaveText(/^\d+\.\d\d$/);
    }
    await noHorizontalScroll(page);
    await saveScreenshot(page, `readable-${width}-memories`);

    // Proposals: a row's rationale reads as more than a word; a tap brings its detail into view.
    await open(page, `/memory/proposals?scope=${team?.id}`, "proposal-row");
    const rows = page.getByTestId("proposal-row");
    await expectReadable(page, rows.first().locator("p").first(), "a proposal", width === 390 ? 30 : 50);
    await rows.nth(2).locator("p").first().click();
    await expect(rows.nth(2)).toHaveAttribute("aria-current", "true");
    const detail = page.getByTestId("proposal-detail");
    await expect(detail.getByRole("button", { name: /Accept/ }).first()).toBeInViewport();
    await noHorizontalScroll(page);
    await saveScreenshot(page, `readable-${width}-proposals`);

    // Agent Identities and one identity's Lost recently (gains included: a fresh demo has lost nothing yet).
    await open(page, "/agents", "identity-row");
    await expectReadable(page, page.getByTestId("identity-row").first().getByRole("link").first(), "an identity");
    const identities: { id: string; name: string }[] = await trpcQuery(page, "identities.list", {});
    const research = identities.find((i) => i.name === "Research agent (demo)") ?? identities[0];
    expect(research).toBeDefined();
    await open(page, `/agents/${research?.id}?tab=lost&show=all`, "change-row");
    const change = page.getByTestId("change-row").first();
    await expectReadable(page, change.locator("td").nth(2).locator("a,span").first(), "a changed Tool");
    await expect(change.getByText(/Lost|Gained/)).toBeInViewport();
    await noHorizontalScroll(page);
    await saveScreenshot(page, `readable-${width}-lost-recently`);

    // The other lists: each first row's name (its first link) reads, and nothing scrolls sideways.
    for (const [name, href, rows] of [
      ["sources", "/tools/sources", "source-row"],
      ["threads", `/memory/threads?scope=${team?.id}`, "thread-row"],
      ["scopes", "/memory/scopes", "scope-row"],
      ["audit-log", "/settings/audit-log", "audit-row"],
    ] as const) {
      await open(page, href, rows);
      const first = page.getByTestId(rows).first();
      await expectReadable(page, first.locator("a, button").first(), `the first of ${name}`);
      await noHorizontalScroll(page);
      await saveScreenshot(page, `readable-${width}-${name}`);
    }
  });
}
