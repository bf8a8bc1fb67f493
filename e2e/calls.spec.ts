import { randomBytes } from "node:crypto";
import { callTool } from "../tests/helpers/mcp-rpc";
import { type RunningServer, simpleTool, startSdkServer } from "../tests/helpers/mcp-servers";
import { expect, saveScreenshot, seriousA11yViolations, test, trpc } from "./fixtures";

// Model-facing names are unique catalog-wide: names of this spec's own.
const suffix = randomBytes(3).toString("hex");
const good = `get_weather_${suffix}`;
const bad = `get_forecast_${suffix}`;
let server: RunningServer;
test.beforeAll(async () => {
  server = await startSdkServer({
    // Tools that take any arguments: /mcp checks arguments against the schema before a call.
    catalog: () => [
      simpleTool(good, { inputSchema: { type: "object" } }),
      simpleTool(bad, { inputSchema: { type: "object" } }),
    ],
    onCall: (name) =>
      name === bad
        ? { content: [{ type: "text", text: "no forecast for the moon" }], isError: true }
        : { content: [{ type: "text", text: "sunny" }] },
  });
});
test.afterAll(async () => {
  await server?.close();
});

test("an operator reads an identity's calls, limits it in the console, and finds the refused call under Tools → Calls", async ({
  page,
  baseURL,
}) => {
  const source = await trpc(page, "sources.createMcpConnection", { name: `Weather ${suffix}`, url: server.url });
  expect((await trpc(page, "sources.checkNow", { id: source.id })).status).toBe("succeeded");
  const identity = await trpc(page, "identities.create", { name: `calls-e2e-${suffix}` });
  await trpc(page, "identities.assignSource", { identityId: identity.id, sourceId: source.id });
  const { value: token } = await trpc(page, "identities.createToken", { identityId: identity.id, name: "e2e" });
  const mcp = `${baseURL}/mcp`;
  await callTool(mcp, token, good, { city: "Oslo" });
  await callTool(mcp, token, good, { city: "Lima" });
  await callTool(mcp, token, bad, {});

  await page.goto(`/agents/${identity.id}?tab=calls`);
  await expect(page.getByTestId("stat-calls")).toHaveText("3");
  await expect(page.getByTestId("stat-error-rate")).toHaveText("33%");
  await expect(page.getByTestId("call-row")).toHaveCount(3);
  await expect(page.getByTestId("payload-capture")).toContainText("Off");

  const limits = page.getByTestId("rate-limits");
  await limits.getByLabel("Calls a minute").fill("1");
  await limits.getByRole("button", { name: "Save limits" }).click();
  await expect(limits).toContainText("Saved.");
  await saveScreenshot(page, "identity-calls");
  const answers = [await callTool(mcp, token, good), await callTool(mcp, token, good)];
  expect(answers.some((a) => (a.result?.structuredContent?.error as { code?: string })?.code === "RATE_LIMITED")).toBe(
    true,
  );

  await page.goto(`/tools/calls?identity=${identity.id}&outcome=failed`);
  await expect(page.getByTestId("call-row")).toHaveCount(1);
  await expect(page.getByTestId("call-row")).toContainText("RATE_LIMITED");
  await expect(page.getByTestId("calls-total")).toContainText("1");
  expect(await seriousA11yViolations(page)).toEqual([]);
  await saveScreenshot(page, "calls");

  await page.goto(`/tools/sources/${source.id}`);
  await expect(page.getByTestId("call-stats").getByTestId("stat-calls")).toHaveText("5");
  await expect(page.getByTestId("failures-by-code")).toContainText("RATE_LIMITED");
  await saveScreenshot(page, "source-calls");
});
