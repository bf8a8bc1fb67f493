/**
 * Memory search shows the state of exactly the query typed: while typing pauses and the
 * new results load it says it is searching, and no row of another query (or of the
 * unsearched list, relabelled "best first" with zero scores) is ever on screen for it.
 */
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test, trpc } from "./fixtures";

const hex = () => randomBytes(3).toString("hex");
const ROTATION = "webhook signing secret rotation";
const AUTOSCALER = "autoscaler staging namespace";

async function listNotes(page: Page, scopeId: string, query: string): Promise<string[]> {
  const input = { scopeId, query, limit: 200 };
  const res = await page.request.get(
    `/api/trpc/memories.list?input=${encodeURIComponent(JSON.stringify({ json: input }))}`,
  );
  expect(res.status()).toBe(200);
  const items = (await res.json()).result.data.json.items as { title: string; body?: string }[];
  return items.map((m) => /note-[ab]\d+/.exec(`${m.title} ${m.body ?? ""}`)?.[0] ?? "?");
}

test("a search never shows rows of another query: pending while it settles, then only its own results", async ({
  page,
}) => {
  const scope = await trpc(page, "scopes.create", { name: `e2e-search-${hex()}` });
  for (let i = 0; i < 12; i++)
    await trpc(page, "memories.create", {
      scopeId: scope.id,
      body: `note-a${i}: the payments-api webhook signing secret rotation is done by the on-call (${i}).`,
    });
  // Written last, so the unsearched list (newest first) opens with them.
  for (let i = 0; i < 12; i++)
    await trpc(page, "memories.create", {
      scopeId: scope.id,
      body: `note-b${i}: the cluster autoscaler for the staging namespace scales to ${i + 2} nodes.`,
    });
  const expected: Record<string, string[]> = {
    "": await listNotes(page, scope.id, ""),
    [ROTATION]: await listNotes(page, scope.id, ROTATION),
    [AUTOSCALER]: await listNotes(page, scope.id, AUTOSCALER),
  };
  // Search is fuzzy, so the two results may share rows, but not their order.
  expect(expected[ROTATION]?.[0]).toMatch(/^note-a/);
  expect(expected[AUTOSCALER]?.[0]).toMatch(/^note-b/);

  // Slow answers widen the moment in which stale rows could show.
  await page.route(/\/api\/trpc\/[^?]*memories\.list/, async (route) => {
    await new Promise((r) => setTimeout(r, 800));
    await route.continue();
  });
  await page.goto(`/memory/memories?scope=${scope.id}`);
  const rows = page.getByTestId("memory-hit");
  await expect(rows.first()).toContainText("note-b");

  // Every change of the page, recorded with the text in the box at that moment.
  await page.evaluate(() => {
    const w = window as unknown as { snapshots: { typed: string; notes: string[]; summary: string }[] };
    w.snapshots = [];
    const take = () => {
      const box = document.getElementById("memory-search") as HTMLInputElement | null;
      const notes = [...document.querySelectorAll('[data-testid="memory-hit"]')].map(
        (r) => /note-[ab]\d+/.exec(r.textContent ?? "")?.[0] ?? "?",
      );
      const summary = document.querySelector('[data-testid="result-summary"]')?.textContent ?? "";
      w.snapshots.push({ typed: box?.value ?? "", notes, summary });
    };
    new MutationObserver(take).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

  const box = page.getByLabel("Search memories");
  await box.fill(ROTATION);
  await expect(page.getByTestId("result-summary")).toContainText(/Searching for “webhook signing secret rotation”…/);
  await expect(page.getByTestId("result-summary")).toContainText("best first");
  await expect(rows.first()).toContainText("note-a");
  await box.fill(AUTOSCALER);
  await expect(page.getByTestId("result-summary")).toContainText(/Searching for “autoscaler staging namespace”…/);
  await expect(page.getByTestId("result-summary")).toContainText("best first");
  await expect(rows.first()).toContainText("note-b");
  await box.fill("");
  await expect(page.getByTestId("result-summary")).toContainText("newest first");

  const snapshots = await page.evaluate(
    () => (window as unknown as { snapshots: { typed: string; notes: string[]; summary: string }[] }).snapshots,
  );
  expect(snapshots.length).toBeGreaterThan(5);
  // The rows on screen, top down, are the first results of the query in the box, in order.
  const wrong = snapshots.filter(
    (s) => s.notes.join(" ") !== (expected[s.typed] ?? []).slice(0, s.notes.length).join(" "),
  );
  expect(wrong, "rows shown that are not the results of the query in the box").toEqual([]);
  // While a query is shown with its rows, the line above says so, never "searching".
  for (const s of snapshots.filter((s) => s.typed && s.notes.length)) expect(s.summary).toMatch(/best first/);
  // The scores shown belong to a search: none is 0.00.
  await box.fill(ROTATION);
  await expect(rows.first()).toContainText("note-a");
  await expect(rows.first().getByRole("img", { name: /^Score / })).not.toHaveAttribute("aria-label", /^Score 0\.00/);
});
