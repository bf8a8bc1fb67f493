/**
 * Where a memory came from, as a person sees it (docs/decisions/0089): an agent writes over
 * /mcp with a real MCP client, and the memory's page names the agent, its token, the Tool
 * Call and the client; the Scopes page shows the key exports are signed with, and an admin
 * trusts another installation's key there.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { expect, saveScreenshot, seriousA11yViolations, test, trpc, trpcQuery } from "./fixtures";

const hex = () => randomBytes(3).toString("hex");

test("a memory an agent wrote over /mcp shows its provenance, and the Tool Call leads to what it wrote", async ({
  page,
  baseURL,
}) => {
  const scope = await trpc(page, "scopes.create", { name: `e2e-provenance-${hex()}` });
  const identity = await trpc(page, "identities.create", { name: `provenance-agent-${hex()}` });
  await trpc(page, "scopes.grant", { scopeId: scope.id, identityId: identity.id, access: "write" });
  const { value: token, token: tokenRow } = await trpc(page, "identities.createToken", {
    identityId: identity.id,
    name: "e2e provenance",
  });
  const client = new Client({ name: "e2e-provenance-client", version: "3.1.4" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  let id: string;
  try {
    const written = await client.callTool({
      name: "remember",
      arguments: { scope: scope.name, body: "Release trains leave on Tuesdays at ten." },
    });
    expect(written.isError).toBeFalsy();
    id = (written.structuredContent as { id: string }).id;
  } finally {
    await client.close();
  }

  await page.goto(`/memory/memories/${id}`);
  const card = page.getByTestId("provenance");
  await expect(card).toContainText(identity.name);
  await expect(card).toContainText("An agent, over /mcp");
  await expect(card).toContainText(tokenRow.id);
  await expect(card).toContainText("e2e-provenance-client 3.1.4");
  const memory = await trpcQuery<{ callId: string }>(page, "memories.get", { id });
  await expect(card).toContainText(memory.callId);
  expect(await seriousA11yViolations(page), "accessibility of a memory with provenance").toEqual([]);
  await saveScreenshot(page, "memory-provenance");

  await card.getByRole("link", { name: "Memories this call wrote" }).click();
  await expect(page).toHaveURL(new RegExp(`callId=${memory.callId}`));
  await expect(page.getByText("Release trains leave on Tuesdays at ten.")).toBeVisible();
  await expect(page.getByText(`Tool Call ${memory.callId.slice(0, 8)}`)).toBeVisible();
});

test("the Scopes page shows this installation's public key, and an admin trusts another's", async ({ page }) => {
  const keys = await trpcQuery<{ installation: { publicKey: string; fingerprint: string } }>(
    page,
    "signingKeys.list",
    {},
  );
  await page.goto("/memory/scopes");
  const card = page.getByTestId("signing-keys");
  await expect(card.getByTestId("installation-public-key")).toHaveText(keys.installation.publicKey);
  await expect(card.getByTestId("installation-fingerprint")).toContainText(keys.installation.fingerprint.slice(0, 4));

  // Another installation's key, as its console would show it.
  const x = generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" }).x as string;
  const label = `Installation ${hex()}`;
  await card.getByLabel("Public key to trust").fill(`ed25519:${x}`);
  await card.getByLabel("Installation").fill(label);
  await card.getByRole("button", { name: "Trust key" }).click();
  await expect(card.getByRole("table", { name: "Trusted keys" })).toContainText(label);
  expect(await seriousA11yViolations(page), "accessibility of the signing keys").toEqual([]);
  await saveScreenshot(page, "signing-keys");

  // A key that is not one is refused, saying what a key looks like.
  await card.getByLabel("Public key to trust").fill("ed25519:not-a-key");
  await card.getByLabel("Installation").fill("Broken");
  await card.getByRole("button", { name: "Trust key" }).click();
  await expect(card).toContainText(/must be an Ed25519 public key/i);
});
