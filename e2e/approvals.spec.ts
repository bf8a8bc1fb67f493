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
