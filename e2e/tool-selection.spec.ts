import { randomBytes } from "node:crypto";
import { type RunningServer, simpleTool, startSdkServer } from "../tests/helpers/mcp-servers";
import { expect, saveScreenshot, seriousA11yViolations, test, trpc } from "./fixtures";

const REFUND = "Refund a captured payment to the card it was paid with; a partial refund takes an amount.";
const REFUND_TOO = "Refund a captured payment back to the card it was paid with; partial refunds take an amount.";
const servers: RunningServer[] = [];
test.afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function connection(page: Parameters<typeof trpc>[0], name: string, tools: ReturnType<typeof simpleTool>[]) {
  const server = await startSdkServer({ catalog: () => tools });
  servers.push(server);
  const source = await trpc(page, "sources.createMcpConnection", { name, url: server.url });
  expect((await trpc(page, "sources.checkNow", { id: source.id })).status).toBe("succeeded");
  return source;
}

test("an operator opens an identity holding two near-identical Tools and sees the pair flagged with both descriptions", async ({
  page,
}) => {
  const tag = randomBytes(2).toString("hex");
  const payments = await connection(page, `Payments ${tag}`, [
    simpleTool("refund_payment", { description: REFUND }),
    simpleTool("lookup_weather", { description: "Tomorrow's weather for a city: temperature, wind and rain." }),
  ]);
  const billing = await connection(page, `Billing ${tag}`, [
    simpleTool("refund_payment", { description: REFUND_TOO }),
    simpleTool("deploy_service", { description: "Roll out a container image to production, one zone at a time." }),
  ]);
  const identity = await trpc(page, "identities.create", { name: `confusable-${tag}` });
  for (const source of [payments, billing])
    await trpc(page, "identities.assignSource", { identityId: identity.id, sourceId: source.id });

  await page.goto(`/agents/${identity.id}`);
  await page.getByRole("tab", { name: "Confusable Tools" }).click();
  await expect(page).toHaveURL(/tab=confusable/);
  const pairs = page.getByTestId("confusable-pair");
  await expect(pairs).toHaveCount(1);
  const pair = pairs.first();
  await expect(pair).toContainText("refund_payment");
  await expect(pair).toContainText("likely confused");
  const sides = pair.getByTestId("confusable-side");
  await expect(sides).toHaveCount(2);
  await expect(sides.filter({ hasText: REFUND })).toHaveCount(1);
  await expect(sides.filter({ hasText: REFUND_TOO })).toHaveCount(1);
  await expect(sides.filter({ hasText: `Payments ${tag}` })).toHaveCount(1);
  await expect(sides.filter({ hasText: `Billing ${tag}` })).toHaveCount(1);
  await expect(pair).toContainText("Both say:");
  await expect(pair).toContainText("refund");
  await expect(pair.getByTestId("confusable-fix")).toContainText("Probably the same Tool from two Sources");
  await expect(page.getByRole("table", { name: "Similarity of the closest Tools" })).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await saveScreenshot(page, "confusable-tools");

  // The Tool's own page shows its twin as its nearest neighbour.
  await sides.first().getByRole("link").click();
  await expect(page).toHaveURL(/\/tools\/catalog\//);
  const neighbours = page.getByRole("table", { name: "Nearest neighbours" });
  await expect(neighbours.getByTestId("neighbour").first()).toContainText("refund_payment");
  expect(await seriousA11yViolations(page)).toEqual([]);
});
