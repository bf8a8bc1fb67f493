/**
 * The curators' console for memory: search with the score breakdown, a memory's
 * supersession chain, the proposal review queue driven by the keyboard, threads (pin,
 * rename, archive), scopes and their grants — and what a viewer may not do.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { expect, saveScreenshot, seriousA11yViolations, signIn, test, trpc } from "./fixtures";

const hex = () => randomBytes(3).toString("hex");
const ADMIN_STATE = "e2e-artifacts/.auth/admin.json";
const CURATOR_STATE = path.join("e2e-artifacts", ".auth", "memory-curator.json");

/** Reads a tRPC query as the page's signed-in user (queries are GET requests). */
async function query(page: Page, procedure: string, input: unknown) {
  const res = await page.request.get(
    `/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ json: input ?? null }))}`,
  );
  expect(res.status(), `${procedure}: ${await res.text()}`).toBe(200);
  return (await res.json()).result.data.json;
}

/** A console user of `role`, created by the admin, signed in in a browser context of their own. */
async function signInAs(admin: Page, browser: Browser, role: "curator" | "viewer") {
  const email = `${role}-${hex()}@example.test`;
  const password = `${role}-password-${hex()}`;
  await trpc(admin, "users.create", { email, name: `E2E ${role}`, role, password });
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signIn(page, { email, password });
  return page;
}

// One curator for the curator tests: sign-ins are rate-limited per address.
test.beforeAll(async ({ browser }) => {
  const admin = await (await browser.newContext({ storageState: ADMIN_STATE })).newPage();
  const curator = await signInAs(admin, browser, "curator");
  await curator.context().storageState({ path: CURATOR_STATE });
  await curator.context().close();
  await admin.context().close();
});

async function asCurator(browser: Browser): Promise<Page> {
  return (await browser.newContext({ storageState: CURATOR_STATE })).newPage();
}

/** A scope of its own with a correction, a near-duplicate pair, noise and a thread. */
async function seedScope(admin: Page) {
  const scope = await trpc(admin, "scopes.create", { name: `e2e-memory-${hex()}` });
  const remember = (body: string, extra: Record<string, unknown> = {}) =>
    trpc(admin, "memories.create", { scopeId: scope.id, body, ...extra });
  const wrong = await remember("The deploy freeze for the holidays starts on the 20th of December.", {
    kind: "decision",
    tags: ["release"],
    threads: ["Holiday release plan"],
  });
  const correction = await trpc(admin, "memories.supersede", {
    memoryId: wrong.id,
    body: "Correction: the deploy freeze for the holidays starts on the 18th of December, after the final release train.",
    kind: "decision",
    tags: ["release"],
  });
  const short = await remember("The billing worker retries failed invoices three times with exponential back-off.", {
    threads: ["Holiday release plan"],
  });
  const fuller = await remember(
    "The billing worker retries failed invoices three times with exponential back-off, then alerts the billing channel.",
  );
  await remember("Search results for new products appear within a minute of publishing.", {
    threads: ["Holiday release plan"],
  });
  await remember("ok");
  const report = await trpc(admin, "consolidator.run", { scopeId: scope.id });
  expect(report.byKind).toMatchObject({ merge: 1, discard: 1 });
  return { scope, wrong, correction, short, fuller };
}

test("a curator searches with the score breakdown, follows a supersession chain, accepts a merge and rejects noise by keyboard, and pins, renames and archives a thread", async ({
  page,
  browser,
}) => {
  const { scope, wrong, correction } = await seedScope(page);
  const curator = await asCurator(browser);
  const q = `?scope=${scope.id}`;

  // Search: the hit carries its score and each signal's share.
  await curator.goto(`/memory/memories${q}`);
  await expect(curator.getByRole("heading", { level: 1, name: "Memories" })).toBeVisible();
  await expect(curator.getByLabel("Scope", { exact: true })).toHaveValue(scope.id);
  await curator.getByLabel("Search memories").fill("when does the deploy freeze start");
  await expect(curator).toHaveURL(/q=when\+does\+the\+deploy\+freeze\+start/);
  // A search is a narrowing of the scope's list: n of N, best first.
  await expect(curator.getByTestId("result-summary")).toContainText(/^\d+ of \d+ memories, best first/);
  const top = curator.getByTestId("memory-hit").first();
  await expect(top).toContainText("18th of December");
  const bar = top.getByRole("img", { name: /^Score \d/ });
  await expect(bar).toHaveAttribute("aria-label", /Full-text \d+\.\d+/);
  await expect(top.getByTestId("score-breakdown")).toContainText("Full-text");
  // The superseded wording is history: not found unless asked for.
  await expect(curator.getByTestId("memory-hit").filter({ hasText: "20th of December" })).toHaveCount(0);
  // Filters live in the address; the box follows it.
  await curator.getByLabel("Include superseded and discarded").click();
  await expect(curator).toHaveURL(/history=1/);
  await expect(curator.getByLabel("Include superseded and discarded")).toBeChecked();
  await expect(curator.getByTestId("memory-hit").filter({ hasText: "20th of December" })).toHaveCount(1);
  expect(await seriousA11yViolations(curator), "accessibility of the search").toEqual([]);
  await saveScreenshot(curator, "memory-search");

  // The chain: the correction names what it replaced, and the old one points forward.
  await curator.goto(`/memory/memories/${correction.id}`);
  const chain = curator.getByTestId("supersession-chain");
  await expect(chain.locator("[data-relation]")).toHaveCount(2);
  await expect(chain.locator('[data-relation="earlier"]')).toContainText("20th of December");
  await expect(chain.locator('[data-relation="this"]')).toContainText("18th of December");
  expect(await seriousA11yViolations(curator), "accessibility of a memory").toEqual([]);
  await saveScreenshot(curator, "memory-detail");
  await chain.getByRole("link", { name: /20th of December/ }).click();
  await expect(curator).toHaveURL(new RegExp(`/memory/memories/${wrong.id}$`));
  await expect(curator.getByText("Superseded", { exact: true }).first()).toBeVisible();
  await curator.getByRole("link", { name: "read the current version" }).click();
  await expect(curator).toHaveURL(new RegExp(`/memory/memories/${correction.id}$`));

  // The review queue: the merge first (higher score), the noise below it; the proposal
  // under the cursor is shown whole beside the list.
  await curator.goto(`/memory/proposals${q}`);
  const rows = curator.getByTestId("proposal-row");
  const card = curator.getByTestId("proposal");
  await expect(rows).toHaveCount(2);
  await expect(curator.getByTestId("proposals-total")).toContainText("2 proposals");
  await expect(rows.nth(0).locator("[data-kind]")).toHaveAttribute("data-kind", "merge");
  await expect(rows.nth(0)).toHaveAttribute("aria-current", "true");
  await expect(card).toHaveAttribute("data-kind", "merge");
  await expect(card.locator("mark").first()).toBeVisible();
  await expect(curator.getByTestId("shortcuts-hint")).toContainText("accept");
  expect(await seriousA11yViolations(curator), "accessibility of the proposals").toEqual([]);
  await saveScreenshot(curator, "memory-proposals");
  await curator.keyboard.press("j");
  await expect(rows.nth(1)).toHaveAttribute("aria-current", "true");
  await expect(card).toHaveAttribute("data-kind", "discard");
  await curator.keyboard.press("k");
  await expect(rows.nth(0)).toHaveAttribute("aria-current", "true");
  // x selects the proposal under the cursor for a bulk decision, and x again lets it go.
  await curator.keyboard.press("x");
  await expect(curator.getByTestId("selection-count")).toHaveText("1 selected");
  await curator.keyboard.press("x");
  await expect(curator.getByTestId("selection-count")).toHaveText("0 selected");
  await curator.keyboard.press("a");
  await expect(curator.getByTestId("review-notice")).toContainText("Accepted the merge proposal");
  await expect(rows).toHaveCount(1);
  await expect(rows.first().locator("[data-kind]")).toHaveAttribute("data-kind", "discard");
  await expect(card).toHaveAttribute("data-kind", "discard");
  // r asks why, and the reason is kept with the decision.
  await curator.keyboard.press("r");
  const dialog = curator.getByRole("dialog");
  await expect(dialog).toContainText("Reject this proposal");
  await dialog.getByLabel("Reason").fill("Agents acknowledge handoffs with ok; keep it for the trail.");
  await dialog.getByRole("button", { name: "Reject", exact: true }).click();
  await expect(curator.getByTestId("review-notice")).toContainText("Rejected");
  await expect(curator.getByText("Nothing to review")).toBeVisible();
  const statusFilter = curator.getByRole("group", { name: "Status" });
  await statusFilter.getByText("Rejected", { exact: true }).click();
  await expect(curator.getByTestId("decision")).toContainText("Agents acknowledge handoffs with ok");
  await statusFilter.getByText("Accepted", { exact: true }).click();
  await curator.getByRole("link", { name: "the merged memory" }).click();
  await expect(curator.getByRole("heading", { name: "Merged from" })).toBeVisible();
  await expect(curator.getByRole("heading", { level: 1 })).toContainText("then alerts the billing channel");

  // Threads: the merged memory took over the thread membership; pin it, rename, archive.
  await curator.goto(`/memory/threads${q}`);
  await expect(curator.getByTestId("thread-row")).toHaveCount(1);
  expect(await seriousA11yViolations(curator), "accessibility of the threads").toEqual([]);
  await curator.getByRole("link", { name: "Holiday release plan" }).click();
  await expect(curator.getByRole("heading", { level: 1, name: "Holiday release plan" })).toBeVisible();
  const members = curator.getByTestId("member-row");
  await expect(members).toHaveCount(3);
  const merged = members.filter({ hasText: "then alerts the billing channel" });
  await merged.getByRole("button", { name: /^Pin / }).click();
  await expect(merged.getByRole("button", { name: /^Unpin / })).toHaveAttribute("aria-pressed", "true");
  await expect(members.first()).toContainText("then alerts the billing channel");
  await expect(curator.getByTestId("thread-counts")).toContainText("1 pinned");
  expect(await seriousA11yViolations(curator), "accessibility of a thread").toEqual([]);
  await saveScreenshot(curator, "memory-thread");

  await curator.getByRole("button", { name: "Rename" }).click();
  const rename = curator.getByRole("dialog");
  await rename.getByLabel("Name").fill("Holiday freeze 2026");
  await rename.getByRole("button", { name: "Rename", exact: true }).click();
  await expect(curator.getByRole("heading", { level: 1, name: "Holiday freeze 2026" })).toBeVisible();
  await curator.getByRole("button", { name: "Archive" }).click();
  await expect(curator.getByTestId("archived-badge")).toBeVisible();
  await curator
    .getByRole("navigation", { name: "Breadcrumb" })
    .getByRole("link", { name: /^Threads/ })
    .click();
  await expect(curator.getByText(`No threads in “${scope.name}”`)).toBeVisible();
  await curator.getByRole("group", { name: "Show" }).getByText("Archived", { exact: true }).click();
  await expect(curator.getByTestId("thread-row")).toContainText("Holiday freeze 2026");
});

test("r, then a reason typed with spaces and the letters a, r, j and k, rejects with that reason and accepts nothing; focus goes to the reason and back", async ({
  page,
  browser,
}) => {
  const { scope } = await seedScope(page);
  const curator = await asCurator(browser);
  await curator.goto(`/memory/proposals?scope=${scope.id}`);
  const rows = curator.getByTestId("proposal-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute("aria-current", "true");
  const first = await rows.nth(0).locator("[data-kind]").getAttribute("data-kind");

  // Opened by the keyboard, at once typed into: every key lands in the reason.
  await curator.keyboard.press("r");
  const dialog = curator.getByRole("dialog");
  const reason = dialog.getByLabel("Reason");
  await expect(reason).toBeFocused();
  const reject = dialog.getByRole("button", { name: "Reject", exact: true });
  // Under three characters Reject is greyed out, and the dialog says why.
  await curator.keyboard.type("N");
  await expect(reject).toBeDisabled();
  await expect(dialog.getByText("Write a reason of at least 3 characters to reject.")).toBeVisible();
  await expect(reject).toHaveAccessibleDescription(/at least 3 characters/);
  const typed = "Not a dup: jk ar, k j a r x";
  await curator.keyboard.type(typed.slice(1));
  await expect(dialog).toBeVisible();
  await expect(reason).toHaveValue(typed);
  await expect(dialog.getByText("Write a reason of at least 3 characters")).toHaveCount(0);
  // Nothing moved behind it and nothing was decided.
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute("aria-current", "true");
  await expect(curator.getByTestId("selection-count")).toHaveText("0 selected");
  await expect(curator.getByTestId("review-notice")).toBeEmpty();
  await reject.click();
  await expect(curator.getByTestId("review-notice")).toContainText("Rejected");
  await expect(dialog).toHaveCount(0);
  await expect(rows).toHaveCount(1);
  const rejected = await query(curator, "proposals.list", { scopeId: scope.id, status: "rejected" });
  expect(rejected.items.map((p: { kind: string; decisionReason: string }) => [p.kind, p.decisionReason])).toEqual([
    [first, typed],
  ]);
  expect((await query(curator, "proposals.list", { scopeId: scope.id, status: "accepted" })).items).toEqual([]);

  // Opened from the card's button, closed with Escape or Cancel: focus is back on that button,
  // and the shortcuts work again once no dialog is open.
  const rejectButton = curator.getByTestId("proposal").getByRole("button", { name: "Reject…" });
  for (const closeWith of ["Escape", "Cancel"] as const) {
    await rejectButton.click();
    await expect(reason).toBeFocused();
    await curator.keyboard.type("a j k");
    if (closeWith === "Escape") await curator.keyboard.press("Escape");
    else await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(rejectButton).toBeFocused();
    await expect(rows).toHaveCount(1);
  }
  // A reason typed over the dialog left nothing behind, and x on the page still selects.
  await rejectButton.blur();
  await curator.keyboard.press("x");
  await expect(curator.getByTestId("selection-count")).toHaveText("1 selected");
  expect((await query(curator, "proposals.list", { scopeId: scope.id, status: "accepted" })).items).toEqual([]);
  await curator.context().close();
});

test("scopes: a curator creates a scope, grants an Agent Identity access from both sides, and exports it", async ({
  page,
  browser,
}) => {
  const identity = await trpc(page, "identities.create", { name: `memory-agent-${hex()}` });
  const curator = await asCurator(browser);
  const name = `e2e-scope-${hex()}`;

  await curator.goto("/memory/scopes");
  expect(await seriousA11yViolations(curator), "accessibility of the scopes").toEqual([]);
  await curator.getByRole("button", { name: "New scope" }).first().click();
  const dialog = curator.getByRole("dialog");
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Description (optional)").fill("Made by the browser test.");
  await dialog.getByLabel("Consolidator runs").selectOption({ label: "Every day" });
  await dialog.getByRole("button", { name: "Create scope" }).click();
  await expect(curator.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(curator.getByText("Every day")).toBeVisible();

  await curator.getByLabel("Grant an Agent Identity").selectOption({ label: identity.name });
  await curator.getByLabel("Access", { exact: true }).selectOption("write");
  await curator.getByRole("button", { name: "Grant", exact: true }).click();
  await expect(curator.getByTestId("grant-row")).toContainText(identity.name);
  expect(await seriousA11yViolations(curator), "accessibility of a scope").toEqual([]);
  await saveScreenshot(curator, "memory-scope");

  const download = curator.waitForEvent("download");
  await curator.getByRole("button", { name: "Export" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^${name}-\\d{4}-\\d{2}-\\d{2}\\.jsonl$`));
  await expect(curator.getByTestId("export-status")).toContainText("Exported 1 line,");

  // The identity's page shows the grant, and can narrow it to read.
  await curator.getByRole("link", { name: identity.name }).click();
  await expect(curator).toHaveURL(/tab=memory/);
  const scopes = curator.getByTestId("identity-scopes");
  await expect(scopes.getByTestId("grant-row")).toContainText(name);
  await scopes.getByLabel(`Access of ${name}`).selectOption("read");
  await expect
    .poll(async () => (await query(page, "scopes.identityGrants", { identityId: identity.id }))[0]?.access)
    .toBe("read");
  expect(await seriousA11yViolations(curator), "accessibility of an identity's memory scopes").toEqual([]);
  await scopes.getByRole("button", { name: `Revoke the grant of ${name}` }).click();
  await expect(scopes.getByText("No memory scopes")).toBeVisible();
});

test("a viewer reads every memory page but is offered no change", async ({ page, browser }) => {
  const { scope, correction } = await seedScope(page);
  const thread = (await query(page, "threads.list", { scopeId: scope.id })).items[0];
  const viewer = await signInAs(page, browser, "viewer");
  const q = `?scope=${scope.id}`;

  await viewer.goto(`/memory/proposals${q}`);
  await expect(viewer.getByTestId("proposal-row")).toHaveCount(2);
  await expect(viewer.getByRole("button", { name: "Accept" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Run consolidator now" })).toHaveCount(0);
  await viewer.keyboard.press("a");
  await expect(viewer.getByTestId("proposal-row")).toHaveCount(2);

  await viewer.goto(`/memory/threads/${thread.id}`);
  await expect(viewer.getByTestId("member-row").first()).toBeVisible();
  await expect(viewer.getByRole("button", { name: "Rename" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: /^Pin / })).toHaveCount(0);

  await viewer.goto(`/memory/memories/${correction.id}`);
  await expect(viewer.getByTestId("memory-body")).toContainText("18th of December");
  await expect(viewer.getByRole("button", { name: /Erase/ })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Add to thread" })).toHaveCount(0);

  await viewer.goto(`/memory/scopes/${scope.id}`);
  await expect(viewer.getByRole("button", { name: "Export" })).toBeVisible();
  await expect(viewer.getByRole("button", { name: "Edit" })).toHaveCount(0);
  await expect(viewer.getByText("Granting needs the curator or operator role.")).toBeVisible();
});

test("the demo scope shows every memory page with data: proposals of each kind, threads with pins, an archived thread", async ({
  page,
}) => {
  const scopes: { id: string; name: string }[] = await query(page, "scopes.list", undefined);
  const demo = scopes.find((s) => s.name === "platform-team");
  expect(demo).toBeDefined();
  for (const kind of ["merge", "supersede", "discard"]) {
    await page.goto(`/memory/proposals?scope=${demo?.id}&kind=${kind}`);
    await expect(page.getByTestId("proposals-total")).toContainText(/^\d+ of \d+ proposals?/);
    await expect(page.getByTestId("proposal-row").first().locator(`[data-kind="${kind}"]`)).toBeVisible();
  }
  await page.goto(`/memory/threads?scope=${demo?.id}&status=archived`);
  await expect(page.getByTestId("thread-row")).toContainText("Mobile app 3.0 launch");
  await page.goto(`/memory/memories?scope=${demo?.id}`);
  await expect(page.getByTestId("result-summary")).toContainText(/\d{3} memories, newest first/);
});

test("an admin adds a memory to a new thread, then erases it for a legal request, leaving a tombstone", async ({
  page,
}) => {
  const scope = await trpc(page, "scopes.create", { name: `e2e-erase-${hex()}` });
  const memory = await trpc(page, "memories.create", {
    scopeId: scope.id,
    body: "# Customer contact\n\nJane Roe's phone number is <b>+1 555 0100</b>; call before 5 pm.",
    kind: "note",
  });
  await page.goto(`/memory/memories/${memory.id}`);
  // Markdown renders; the HTML in the body stays text.
  await expect(page.getByTestId("memory-body").getByRole("heading", { name: "Customer contact" })).toBeVisible();
  await expect(page.getByTestId("memory-body")).toContainText("<b>+1 555 0100</b>");
  await expect(page.getByTestId("memory-body").locator("b")).toHaveCount(0);

  await page.getByRole("button", { name: "Add to thread" }).click();
  const add = page.getByRole("dialog");
  await add.getByLabel("New thread's name").fill("Customer contacts");
  await add.getByRole("button", { name: "Add", exact: true }).click();
  await expect(add).toBeHidden();
  await expect(page.getByRole("list", { name: "Threads of this memory" })).toContainText("Customer contacts");

  await page.getByRole("button", { name: "Erase…" }).click();
  const erase = page.getByRole("dialog");
  await expect(erase).toContainText("This cannot be undone");
  await expect(erase.getByRole("button", { name: "Erase permanently" })).toBeDisabled();
  await erase.getByLabel("Reason").fill("GDPR erasure request #4411 from Jane Roe");
  expect(await seriousA11yViolations(page), "accessibility of the erase dialog").toEqual([]);
  await erase.getByRole("button", { name: "Erase permanently" }).click();
  await expect(page.getByTestId("erased-callout")).toContainText("GDPR erasure request #4411");
  await expect(page.getByRole("heading", { level: 1, name: "Erased memory" })).toBeVisible();
  await expect(page.getByText("555 0100")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Erase…" })).toHaveCount(0);
});
