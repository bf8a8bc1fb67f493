/**
 * Held agents' writes in the console: a curator sets a scope to review agents' writes, an
 * agent's memory arrives through /mcp held, and the curator admits it from the proposals
 * queue with the keyboard; retention rules are previewed before saving. Axe on each page.
 */
import { randomBytes } from "node:crypto";
import { callTool } from "../tests/helpers/mcp-rpc";
import { expect, seriousA11yViolations, signIn, test, trpc, trpcQuery } from "./fixtures";

const hex = () => randomBytes(3).toString("hex");

test("a curator holds a scope's agent writes for review and admits a held memory with the keyboard", async ({
  page,
  browser,
  baseURL,
}) => {
  // Three pages, a build of state through tRPC and /mcp, and axe three times.
  test.slow();
  const scope = await trpc(page, "scopes.create", { name: `e2e-held-${hex()}` });
  const identity = await trpc(page, "identities.create", { name: `held-agent-${hex()}` });
  await trpc(page, "scopes.grant", { scopeId: scope.id, identityId: identity.id, access: "write" });
  const { value: token } = await trpc(page, "identities.createToken", { identityId: identity.id, name: "e2e" });
  const email = `curator-${hex()}@example.test`;
  const password = `curator-password-${hex()}`;
  await trpc(page, "users.create", { email, name: "E2E held curator", role: "curator", password });
  const curator = await (await browser.newContext({ storageState: { cookies: [], origins: [] } })).newPage();
  await signIn(curator, { email, password });

  // The scope's page: Agents' writes set to review, and a retention rule previewed.
  await curator.goto(`/memory/scopes/${scope.id}`);
  await curator.getByTestId("agent-writes").selectOption("review");
  await curator.getByRole("button", { name: "Save", exact: true }).click();
  await expect(curator.getByRole("link", { name: "admit proposals" })).toBeVisible();
  await curator.getByLabel("Kind").selectOption("handoff");
  await curator.getByLabel("Keep for (days)").fill("90");
  await curator.getByRole("button", { name: "Preview" }).click();
  await expect(curator.getByTestId("retention-preview")).toContainText("This rule erases nothing now");
  expect(await seriousA11yViolations(curator), "accessibility of the scope page").toEqual([]);
  await curator.getByRole("button", { name: /^Save rule: handoff kept 90 days/ }).click();
  await expect(curator.getByTestId("retention-rule")).toContainText("90 days");

  // An agent remembers through /mcp and is told its write is held.
  const mcp = `${baseURL}/mcp`;
  const answer = await callTool(mcp, token, "remember", {
    scope: scope.name,
    body: "The staging database moved to port 6543 on Monday.",
  });
  const result = answer.result as unknown as {
    structuredContent: { id: string; quarantined: boolean };
    content: { text: string }[];
  };
  expect(result.structuredContent.quarantined).toBe(true);
  expect(result.content[0]?.text).toContain("held for review");
  const memoryId = result.structuredContent.id;

  // The queue shows it as an admit proposal; the keyboard admits it.
  await curator.goto(`/memory/proposals?scope=${scope.id}`);
  const rows = curator.getByTestId("proposal-row");
  const card = curator.getByTestId("proposal");
  await expect(rows).toHaveCount(1);
  await expect(card).toHaveAttribute("data-kind", "admit");
  await expect(card).toContainText("port 6543");
  await expect(card.getByTestId("memory-held")).toBeVisible();
  expect(await seriousA11yViolations(curator), "accessibility of the admit queue").toEqual([]);
  await curator.keyboard.press("a");
  await expect(curator.getByTestId("review-notice")).toContainText("Accepted the admit proposal");
  await expect(curator.getByText("Nothing to review")).toBeVisible();

  const memory = await trpcQuery<{ quarantined: boolean; admittedBy: string }>(page, "memories.get", { id: memoryId });
  expect(memory).toMatchObject({ quarantined: false, admittedBy: email });
  await curator.goto(`/memory/memories/${memoryId}`);
  await expect(curator.getByTestId("memory-held")).toHaveCount(0);
  await expect(curator.getByTestId("memory-admitted")).toContainText(`admitted by ${email}`);
  expect(await seriousA11yViolations(curator), "accessibility of the admitted memory").toEqual([]);
  await curator.context().close();
});
