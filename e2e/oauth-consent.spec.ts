import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { MemoryOAuthProvider } from "../tests/helpers/oauth-client";
import { demoAdmin, expect, test, trpc } from "./fixtures";

const REDIRECT = "http://127.0.0.1:49153/callback";

test("an MCP client signs in by URL alone: sign-in, the identity chosen, tools/list as that identity, revoked on the Tokens tab", async ({
  page,
  browser,
  baseURL,
}) => {
  const name = `oauth-e2e-${Date.now()}`;
  const identity = await trpc(page, "identities.create", { name });
  const mcpUrl = new URL(`${baseURL}/mcp`);
  const provider = new MemoryOAuthProvider(REDIRECT, "E2E Desktop Client", "e2e-state");
  const first = new Client({ name: "e2e", version: "1" });
  const failure = await first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })).then(
    () => null,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(UnauthorizedError);

  // A browser with no session: the request survives the sign-in.
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const person = await context.newPage();
  let callback: URL | null = null;
  await person.route(`${REDIRECT}**`, async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ contentType: "text/html", body: "<title>done</title>You can close this window." });
  });
  await person.goto(String(provider.authorizationUrl));
  await expect(person).toHaveURL(/\/sign-in\?/);
  const admin = demoAdmin();
  await person.getByLabel("Email").fill(admin.email);
  await person.getByLabel("Password").fill(admin.password);
  await person.getByRole("button", { name: "Sign in" }).click();

  await expect(person).toHaveURL(/\/oauth\/identity\?/);
  await expect(person.getByTestId("oauth-client-name")).toHaveText("E2E Desktop Client");
  await expect(person.getByTestId("oauth-redirect-host")).toHaveText("127.0.0.1:49153");
  await person.getByLabel("Act as Agent Identity").selectOption({ label: name });
  await person.getByRole("button", { name: "Approve" }).click();
  await expect.poll(() => callback?.searchParams.get("state")).toBe("e2e-state");
  await context.close();

  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await transport.finishAuth((callback as unknown as URL).searchParams);
  const client = new Client({ name: "e2e", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain("find_tools");
  await client.close();

  // The grant on the identity's Tokens tab, revoked there, and refused at /mcp.
  await page.goto(`/agents/${identity.id}?tab=tokens`);
  const row = page.getByTestId("oauth-grant-row");
  await expect(row).toContainText("E2E Desktop Client");
  await expect(row).toContainText(admin.email);
  // The tools/list above used its token.
  await expect(row.getByTestId("oauth-grant-last-used")).toHaveText("just now");
  await row.getByRole("button", { name: "Revoke E2E Desktop Client" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByText("No signed-in clients")).toBeVisible();
  const refused = await fetch(mcpUrl, {
    method: "POST",
    headers: {
      authorization: `Bearer ${provider.saved?.access_token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  expect(refused.status).toBe(401);
});

test("an admin turns OAuth client registration off on Agent Identities, and a client's registration is refused saying why", async ({
  page,
  baseURL,
}) => {
  const register = () =>
    fetch(`${baseURL}/api/auth/oauth2/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "E2E registering client",
        application_type: "native",
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: "none",
      }),
    });
  await page.goto("/agents");
  const card = page.getByTestId("client-registration");
  await expect(card).toContainText("On: an MCP client connecting by URL registers itself");
  try {
    await card.getByRole("button", { name: "Turn off" }).click();
    await expect(card).toContainText("Off: new clients cannot register themselves");
    const refused = await register();
    expect(refused.status).toBe(403);
    expect((await refused.json()).error_description).toMatch(/turned off/);
  } finally {
    await trpc(page, "identities.setClientRegistration", { enabled: true });
  }
  await page.reload();
  await expect(card.getByRole("button", { name: "Turn off" })).toBeVisible();
  expect((await register()).status).toBeLessThan(300);
});
