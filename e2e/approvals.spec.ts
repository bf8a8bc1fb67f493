import { randomBytes } from "node:crypto";
import { callTool } from "../tests/helpers/mcp-rpc";
import { type RunningServer, simpleTool, startSdkServer } from "../tests/helpers/mcp-servers";
import { expect, saveScreenshot, seriousA11yViolations, test, trpc, trpcQuery } from "./fixtures";

const suffix = randomBytes(3).toString("hex");
const tool = `issue_refund_${suffix}`;
const calls: Record<string, unknown>[] = [];
let server: RunningServer;
test.beforeAll(async () => {
  server = await startSdkServer({
    catalog: () => [simpleTool(tool, { inputSchema: { type: "object" } })],
    onCall: (_name, args) => {
      calls.push(args);
      return { content: [{ type: "text", text: `refunded ${JSON.stringify(args)}` }] };
    },
  });
});
test.afterAll(async () => {
  await server?.close();
});

const code = (answer: Awaited<ReturnType<typeof callTool>>) =>
  (answer.result?.structuredContent?.error as { code?: string } | undefined)?.code;

test("an operator puts a Tool under approve on its page; an approver approves one call and denies another in Tools → Approvals", async ({
  page,
  baseURL,
}) => {
  const source = await trpc(page, "sources.createMcpConnection", { name: `Refunds ${suffix}`, url: server.url });
  expect((await trpc(page, "sources.checkNow", { id: source.id })).status).toBe("succeeded");
  const identity = await trpc(page, "identities.create", { name: `approvals-e2e-${suffix}` });
  await trpc(page, "identities.assignSource", { identityId: identity.id, sourceId: source.id });
  const { value: token } = await trpc(page, "identities.createToken", { identityId: identity.id, name: "e2e" });
  const listed = await trpcQuery<{ items: { id: string }[] }>(page, "catalog.listTools", { sourceId: source.id });
  const toolId = listed.items[0]?.id as string;

  await page.goto(`/tools/sources/${source.id}`);
  await expect(page.getByTestId("source-call-policy").getByLabel("Policy for its Tools")).toHaveValue("none");
  await page.goto("/tools/sources");
  await expect(page.getByRole("switch", { name: "Confirm destructive Tools by default" })).toBeVisible();

  await page.goto(`/tools/catalog/${toolId}`);
  const policy = page.getByTestId("call-policy");
  await expect(policy).toContainText("Now: none");
  await policy.getByLabel("Policy").selectOption("approve");
  await expect(policy).toContainText("Now: approve — set on this Tool");

  const mcp = `${baseURL}/mcp`;
  const args = { order: "A-17", apiKey: "sk-live-do-not-show" };
  const parked = await callTool(mcp, token, tool, args);
  expect(code(parked)).toBe("APPROVAL_PENDING");
  expect(calls).toHaveLength(0);

  await page.goto("/tools/approvals");
  const row = page.getByTestId("pending-approval").filter({ hasText: identity.name });
  await expect(row).toContainText(tool);
  await expect(row).toContainText("A-17");
  await expect(row).toContainText("[redacted]");
  await expect(page.getByText("sk-live-do-not-show")).toHaveCount(0);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await saveScreenshot(page, "approvals");
  await row.getByRole("button", { name: "Approve" }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId("decided-approval").filter({ hasText: identity.name })).toContainText(
    "approved, awaiting retry",
  );

  const ran = await callTool(mcp, token, tool, args);
  expect(ran.result?.isError).toBeUndefined();
  expect(ran.result?.content[0]?.text).toContain("refunded");
  expect(calls).toHaveLength(1);
  expect(calls[0]).toEqual(args);
  // The approval allowed one run: the same call again is parked anew, not run a second time.
  expect(code(await callTool(mcp, token, tool, args))).toBe("APPROVAL_PENDING");
  expect(calls).toHaveLength(1);
  await expect(page.getByTestId("pending-approval").filter({ hasText: "A-17" })).toBeVisible();

  // Another call: it appears live, without a reload, and is denied with a reason.
  expect(code(await callTool(mcp, token, tool, { order: "B-2" }))).toBe("APPROVAL_PENDING");
  const second = page.getByTestId("pending-approval").filter({ hasText: "B-2" });
  await expect(second).toBeVisible();
  await second.getByRole("button", { name: "Deny" }).click();
  const dialog = page.getByRole("dialog", { name: "Deny this call" });
  await dialog.getByLabel("Reason").fill("B orders are refunded by finance");
  await dialog.getByRole("button", { name: "Deny" }).click();
  await expect(second).toHaveCount(0);
  const denied = await callTool(mcp, token, tool, { order: "B-2" });
  expect(code(denied)).toBe("APPROVAL_DENIED");
  expect(denied.result?.content[0]?.text).toContain("B orders are refunded by finance");
  expect(calls).toHaveLength(1);

  await page.goto("/settings/audit-log?search=call.");
  await expect(page.getByText("call.deny").first()).toBeVisible();
});

test("an operator tries a Tool under confirm: the console says it asks for confirmation, and the call runs once the operator confirms", async ({
  page,
  baseURL,
}) => {
  const name = `close_account_${suffix}`;
  const closed: Record<string, unknown>[] = [];
  const closer = await startSdkServer({
    catalog: () => [
      simpleTool(name, {
        inputSchema: { type: "object", properties: { account: { type: "string" } }, required: ["account"] },
      }),
    ],
    onCall: (_name, args) => {
      closed.push(args);
      return { content: [{ type: "text", text: `closed ${String(args.account)}` }] };
    },
  });
  try {
    const source = await trpc(page, "sources.createMcpConnection", { name: `Accounts ${suffix}`, url: closer.url });
    expect((await trpc(page, "sources.checkNow", { id: source.id })).status).toBe("succeeded");
    const identity = await trpc(page, "identities.create", { name: `confirm-e2e-${suffix}` });
    await trpc(page, "identities.assignSource", { identityId: identity.id, sourceId: source.id });
    const { value: token } = await trpc(page, "identities.createToken", { identityId: identity.id, name: "e2e" });
    const listed = await trpcQuery<{ items: { id: string }[] }>(page, "catalog.listTools", { sourceId: source.id });
    const toolId = listed.items[0]?.id as string;
    await trpc(page, "catalog.setCallPolicy", { toolId, policy: "confirm" });

    // An agent whose client cannot ask its user is told so; nothing runs.
    expect(code(await callTool(`${baseURL}/mcp`, token, name, { account: "ACC-1" }))).toBe("CONFIRMATION_UNAVAILABLE");
    expect(closed).toHaveLength(0);

    await page.goto(`/tools/catalog/${toolId}`);
    const panel = page.getByTestId("try-tool");
    await expect(panel.getByTestId("try-confirm-note")).toContainText("asks for confirmation before each call");
    const as = panel.getByLabel("As Agent Identity");
    await as.selectOption((await as.locator("option", { hasText: identity.name }).getAttribute("value")) ?? "");
    await panel.getByLabel(/^account/).fill("ACC-9");
    await panel.getByRole("button", { name: "Call Tool" }).click();
    const dialog = page.getByRole("dialog", { name: `Confirm this call of ${name}` });
    await expect(dialog).toContainText(identity.name);
    await expect(dialog).toContainText('"account": "ACC-9"');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, "try-under-confirm");
    // Not confirmed: nothing runs.
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    expect(closed).toHaveLength(0);

    await panel.getByRole("button", { name: "Call Tool" }).click();
    await page
      .getByRole("dialog", { name: `Confirm this call of ${name}` })
      .getByRole("button", { name: "Confirm and call" })
      .click();
    await expect(panel.getByTestId("try-result").getByTestId("result-blocks")).toContainText("closed ACC-9");
    expect(closed).toEqual([{ account: "ACC-9" }]);

    // The try is audited as confirmed.
    await page.goto("/settings/audit-log?action=tool.try");
    await expect(page.getByTestId("audit-row").first()).toContainText(name);
  } finally {
    await closer.close();
  }
});
