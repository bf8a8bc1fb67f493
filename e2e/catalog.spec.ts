import { randomBytes } from "node:crypto";
import {
  paged,
  type RunningServer,
  simpleTool,
  startRawServer,
  startSurfaceServer,
} from "../tests/helpers/mcp-servers";
import { expect, saveScreenshot, seriousA11yViolations, signIn, test, trpc } from "./fixtures";

let server: RunningServer;
test.beforeAll(async () => {
  // A real MCP server on loopback whose pages arrive slowly enough to watch a check progress.
  const tools = Array.from({ length: 50 }, (_, i) => simpleTool(`ticket_${String(i).padStart(2, "0")}`));
  const page = paged(tools, 10);
  server = await startRawServer(async (call) => {
    await new Promise((r) => setTimeout(r, 700));
    return page(call);
  });
});
test.afterAll(async () => {
  await server?.close();
});

test("a Connection's resources, templates and prompts show on its page under the names agents use, on a phone", async ({
  page,
}) => {
  const surface = await startSurfaceServer({
    label: "handbook",
    resources: 3,
    templates: [{ uriTemplate: "file:///handbook/{chapter}.md", name: "chapter", mimeType: "text/markdown" }],
    prompts: [
      {
        name: "onboarding_checklist",
        description: "A new hire's first week",
        arguments: [{ name: "team", required: true }],
      },
    ],
  });
  try {
    const source = await trpc(page, "sources.createMcpConnection", {
      name: `Handbook ${randomBytes(2).toString("hex")}`,
      url: surface.url,
      reviewPolicy: "trust",
    });
    expect((await trpc(page, "sources.checkNow", { id: source.id })).status).toBe("succeeded");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/tools/sources/${source.id}`);
    const card = page.getByTestId("source-surface");
    await expect(card.getByTestId("surface-tab-resource")).toContainText("3");
    const firstProxied = card.getByTestId("surface-proxied").first();
    await expect(firstProxied).toContainText(`qm://source/${source.id}/`);
    await expect(card.getByTestId("surface-row").first()).toContainText("doc-0");
    // The agent's URI shows whole on a phone (up to three lines), the Source's own URI at its end.
    await expect(firstProxied).toHaveText(`URI agents use: qm://source/${source.id}/file:///doc-0.txt`);
    expect(await firstProxied.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    await card.scrollIntoViewIfNeeded();
    await saveScreenshot(page, "source-surface-390");

    await card.getByRole("tab", { name: /Templates/ }).click();
    await expect(card.getByTestId("surface-row").first()).toContainText("chapter");
    await card.getByRole("tab", { name: /Prompts/ }).click();
    await expect(card.getByTestId("surface-proxied").first()).toContainText(/_onboarding_checklist$/);

    // Readable on a phone: the agent's name starts on screen and the page does not scroll sideways.
    const box = await card.getByTestId("surface-proxied").first().boundingBox();
    expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      "the page scrolls sideways",
    ).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
  } finally {
    await surface.close();
  }
});

test("an operator adds a Connection, runs Check now, watches its progress and finds its Tools in the catalog", async ({
  page,
  browser,
}) => {
  // The admin creates an operator; the operator does the work in a session of their own.
  const email = `op-${randomBytes(3).toString("hex")}@example.test`;
  const password = "operator-password-123";
  const created = await page.request.post("/api/trpc/users.create", {
    data: { json: { email, name: "Otto Operator", role: "operator", password } },
  });
  expect(created.status()).toBe(200);
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const op = await context.newPage();
  await signIn(op, { email, password });

  await op.goto("/tools/sources");
  await op.getByRole("button", { name: "Add MCP Connection" }).first().click();
  const dialog = op.getByRole("dialog");
  const name = `Helpdesk ${randomBytes(2).toString("hex")}`;
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("URL").fill(server.url);
  await dialog.getByRole("button", { name: /Add/ }).last().click();
  await expect(dialog).toBeHidden();

  // Saving opens the new Source, whose first check starts at once; Check now runs another.
  await expect(op).toHaveURL(/\/tools\/sources\/[\w-]+\?created=1$/);
  await expect(op.getByRole("heading", { level: 1, name })).toBeVisible();
  await op.getByRole("button", { name: "Check now" }).click();
  const progress = op.getByTestId("check-progress");
  await expect(progress).toContainText("Checking the catalog");
  await expect(progress).toContainText(/[1-4]\s*pages/);
  await expect(progress).toContainText("Check succeeded", { timeout: 30_000 });
  // The scheduler checks a new Connection soon after it is added: under load its check can
  // finish before the click, and then "Check now" rightly finds no changes. Either way the
  // history shows the check that imported all 50 Tools.
  await expect(progress).toContainText(/\+50 added|No changes/);
  await expect(op.getByRole("button", { name: "50 added, 0 removed, 0 changed — show which Tools" })).toBeVisible();
  await expect(op.getByTestId("catalog-state")).toContainText("OK");
  expect(await seriousA11yViolations(op)).toEqual([]);

  await op.getByRole("link", { name: /View 50 Tools in the catalog/ }).click();
  await expect(op).toHaveURL(/\/tools\/catalog\?source=/);
  await expect(op.getByTestId("catalog-row").first()).toContainText("ticket_00");
  await expect(op.getByTestId("catalog-total")).toContainText("50");
  expect(await seriousA11yViolations(op)).toEqual([]);
  await context.close();
});

test("a Tool with a reserved argument shows Schema unsupported with its reason", async ({ page }) => {
  await page.goto("/tools/catalog?q=refund_payment");
  const row = page.getByTestId("catalog-row").filter({ hasText: "refund_payment" });
  await expect(row).toContainText("Schema unsupported");
  await row.getByRole("link", { name: "refund_payment" }).click();
  const reason = page.getByTestId("compatibility-reason");
  await expect(reason).toContainText("Schema unsupported");
  await expect(reason).toContainText('starts with "__"');
  await expect(reason).not.toContainText("__tenant");
  await expect(page.getByText("not offered to models")).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
});

test("a failing check shows its reason while the previous Tools remain listed", async ({ page }) => {
  // A server that serves its catalog until it breaks: HTTP 500 on page 2.
  let broken = false;
  const tools = Array.from({ length: 12 }, (_, i) => simpleTool(`wiki_page_${String(i).padStart(2, "0")}`));
  const good = paged(tools, 5);
  const flaky = await startRawServer((call) =>
    broken && call.page === 2 ? { status: 500, body: "upstream exploded", contentType: "text/plain" } : good(call),
  );
  try {
    const name = `Flaky wiki ${randomBytes(2).toString("hex")}`;
    const created = await page.request.post("/api/trpc/sources.createMcpConnection", {
      data: { json: { name, url: flaky.url } },
    });
    const { id } = (await created.json()).result.data.json;
    const first = await page.request.post("/api/trpc/sources.checkNow", { data: { json: { id } } });
    expect((await first.json()).result.data.json).toMatchObject({ status: "succeeded", tools: 12 });

    broken = true;
    await page.goto(`/tools/sources/${id}`);
    await expect(page.getByTestId("catalog-state")).toContainText("OK");
    await page.getByRole("button", { name: "Check now" }).click();
    await expect(page.getByTestId("catalog-state")).toContainText("Failing since", { timeout: 30_000 });
    const failure = page.getByTestId("last-failure");
    await expect(failure).toContainText("CATALOG_HTTP_ERROR");
    await expect(failure).toContainText("HTTP 500");
    await expect(failure).toContainText("page 2");
    await expect(failure).toContainText("still active");
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole("link", { name: /View 12 Tools in the catalog/ }).click();
    await expect(page.getByTestId("catalog-total")).toContainText("12");
    await expect(page.getByTestId("catalog-row").filter({ hasText: "wiki_page_00" }).first()).toBeVisible();
  } finally {
    await flaky.close();
  }
});

test("the catalog is virtualized: 20,000 Tools scroll, and a jump to the end shows the last ones at once", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // Five SDK Tool Hosts of 4,000 Tools each, named to sort after everything else.
  const suffix = randomBytes(2).toString("hex");
  for (let h = 0; h < 5; h++) {
    const created = await page.request.post("/api/trpc/sources.createToolHost", {
      data: { json: { name: `Bulk host ${h} ${suffix}` } },
    });
    const { hostToken } = (await created.json()).result.data.json;
    const tools = Array.from({ length: 4000 }, (_, i) => simpleTool(`zzzbulk-${h}-${String(i).padStart(4, "0")}`));
    const registered = await page.request.put("/api/v1/tool-hosts/registration", {
      headers: { authorization: `Bearer ${hostToken}` },
      data: { tools },
    });
    expect(registered.status()).toBe(200);
  }

  await page.goto("/tools/catalog");
  const total = page.getByTestId("catalog-total");
  await expect(total).toContainText(/\d{2},\d{3} Tools/);
  expect(Number(((await total.textContent()) ?? "").replace(/\D/g, ""))).toBeGreaterThanOrEqual(20_000);
  const rows = page.getByTestId("catalog-row");
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeLessThan(100);

  // Dragging the scrollbar to the bottom loads the rows there, not every page before them.
  const scroller = page.getByTestId("catalog-scroll");
  let listCalls = 0;
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith("/api/trpc/"))
      listCalls += path.split(",").filter((p) => p.endsWith("catalog.listTools")).length;
  });
  await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(rows.filter({ hasText: "zzzbulk-4-3999" })).toBeVisible({ timeout: 10_000 });
  expect(await rows.count()).toBeLessThan(100);
  // The rows around the end and their neighbours, not the 100 pages before them.
  expect(listCalls).toBeLessThanOrEqual(4);

  // And back to the middle of the list: rows there, still only a window of them.
  await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight / 2));
  const loadedRowInMiddle = () =>
    scroller.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + 40, box.top + box.height / 2);
      return hit?.closest("[data-testid=catalog-row]") != null;
    });
  await expect.poll(loadedRowInMiddle, { timeout: 10_000 }).toBe(true);
  expect(await rows.count()).toBeLessThan(100);
});
