import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { MemoryOAuthProvider } from "../tests/helpers/oauth-client";
import { demoAdmin, expect, signIn, test, trpc } from "./fixtures";

const REDIRECT = "http://127.0.0.1:49153/callback";

test("an MCP client signs in by URL alone: sign-in, the identity chosen, tools/list as that identity, refreshed, revoked on the Tokens tab", async ({
  page,
  browser,
  baseURL,
}) => {
  const name = `oauth-e2e-${Date.now()}`;
  // Another identity offered beside it, so the one the agent acts as is the one chosen.
  await trpc(page, "identities.create", { name: `${name}-other`, instructions: "You are the other one." });
  const identity = await trpc(page, "identities.create", { name, instructions: `You are ${name}.` });
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
  expect(client.getInstructions()).toContain(`You are ${name}.`);
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain("find_tools");
  await client.close();

  // The token refreshed (rotated), and the new one works as the same identity.
  const refresh = () =>
    fetch(`${baseURL}/api/auth/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: provider.saved?.refresh_token ?? "",
        client_id: provider.info?.client_id ?? "",
        resource: String(mcpUrl),
      }),
    });
  const refreshed = await refresh();
  expect(refreshed.status, await refreshed.clone().text()).toBe(200);
  const rotated = await refreshed.json();
  expect(rotated.refresh_token).not.toBe(provider.saved?.refresh_token);
  provider.saveTokens(rotated);
  const again = new Client({ name: "e2e", version: "1" });
  await again.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  expect(again.getInstructions()).toContain(`You are ${name}.`);
  await again.close();

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
  expect((await refresh()).status).toBe(400);
});

test("one authorization request open in two tabs: approved in one, the other says so and grants nothing", async ({
  page,
  baseURL,
}) => {
  const name = `oauth-tabs-${Date.now()}`;
  await trpc(page, "identities.create", { name });
  const provider = new MemoryOAuthProvider(REDIRECT, "E2E Two Tab Client", "e2e-tabs");
  await new Client({ name: "e2e", version: "1" })
    .connect(new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`), { authProvider: provider }))
    .catch(() => {});
  const authorizationUrl = String(provider.authorizationUrl);
  const callbacks: URL[] = [];
  await page.context().route(`${REDIRECT}**`, async (route) => {
    callbacks.push(new URL(route.request().url()));
    await route.fulfill({ contentType: "text/html", body: "<title>done</title>You can close this window." });
  });
  // The signed-in admin's browser, the client's one request opened in two tabs.
  const [first, second] = [await page.context().newPage(), await page.context().newPage()];
  for (const tab of [first, second]) {
    await tab.goto(authorizationUrl);
    await expect(tab).toHaveURL(/\/oauth\/identity\?/);
  }
  await first.getByLabel("Act as Agent Identity").selectOption({ label: name });
  await first.getByRole("button", { name: "Approve" }).click();
  await expect.poll(() => callbacks.length).toBe(1);
  expect(callbacks[0]?.searchParams.get("code")).toBeTruthy();

  await second.getByLabel("Act as Agent Identity").selectOption({ label: name });
  await second.getByRole("button", { name: "Approve" }).click();
  await expect(second.getByTestId("oauth-answered")).toHaveText(
    /already approved, in another tab or window: this page granted nothing more/,
  );
  await expect(second.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(second.getByRole("button", { name: "Deny" })).toHaveCount(0);
  expect(callbacks).toHaveLength(1);
  await page.context().unroute(`${REDIRECT}**`);
});

test("a viewer reaching the consent page is told only an operator may connect an agent, and offered no identity", async ({
  page,
  browser,
  baseURL,
}) => {
  const email = `viewer-${Date.now()}@example.test`;
  const password = `viewer-password-${Date.now()}`;
  await trpc(page, "users.create", { email, name: "E2E viewer", role: "viewer", password });
  const provider = new MemoryOAuthProvider(REDIRECT, "E2E Viewer's Client", "e2e-viewer");
  await new Client({ name: "e2e", version: "1" })
    .connect(new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`), { authProvider: provider }))
    .catch(() => {});
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const viewer = await context.newPage();
  await signIn(viewer, { email, password });
  await viewer.goto(String(provider.authorizationUrl));
  await expect(viewer).toHaveURL(/\/oauth\/identity\?/);
  await expect(viewer.getByTestId("oauth-client-name")).toHaveText("E2E Viewer's Client");
  await expect(
    viewer.getByRole("alert").filter({ hasText: "Only an operator (or an admin) may connect an agent" }),
  ).toBeVisible();
  await expect(viewer.getByLabel("Act as Agent Identity")).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Deny" })).toBeVisible();
  await context.close();
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
