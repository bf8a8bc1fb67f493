import { expect, test } from "./fixtures";

test("an admin creates an API key, sees it once, and revokes it", async ({ page, request }) => {
  await page.goto("/settings/api-keys");
  await page.getByRole("button", { name: "Create API key" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("e2e pipeline");
  await dialog.getByLabel("Role").selectOption("viewer");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const key = (await dialog.getByTestId("secret-value").textContent())?.trim() ?? "";
  expect(key).toMatch(/^qm_key_/);

  // The key works against the same API the console uses.
  const me = await request.get("/api/trpc/me.get", { headers: { authorization: `Bearer ${key}` } });
  expect(me.status()).toBe(200);

  await dialog.getByRole("button", { name: "Done" }).click();
  const row = page.getByTestId("api-key-row").filter({ hasText: "e2e pipeline" });
  await expect(row).toContainText("Active");
  await expect(page.getByText(key)).toHaveCount(0);

  // Revoking asks first, in the console's own dialog, and says what it does.
  await row.getByRole("button", { name: "Revoke e2e pipeline" }).click();
  const revoke = page.getByRole("dialog", { name: "Revoke “e2e pipeline”?" });
  await expect(revoke).toContainText("refused at once");
  await revoke.getByRole("button", { name: "Revoke" }).click();
  await expect(revoke).toHaveCount(0);
  await expect(row).toContainText("Revoked");
  const after = await request.get("/api/trpc/me.get", { headers: { authorization: `Bearer ${key}` } });
  expect(after.status()).toBe(401);

  await page.goto("/settings/audit-log?q=e2e%20pipeline");
  await expect(page.getByTestId("audit-row").filter({ hasText: "api_key.revoke" })).toHaveCount(1);
});

test("an admin adds a user; a bad email is named in the error", async ({ page }) => {
  await page.goto("/settings/users");
  await page.getByRole("button", { name: "Add user" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("Nadia New");
  await dialog.getByLabel("Email").fill("not-an-email");
  await dialog.getByLabel("Initial password").fill("a-long-enough-password");
  await dialog.getByRole("button", { name: "Add user" }).click();
  // The error stands under the field it names, and the field is described by it.
  await expect(dialog.getByRole("alert")).toContainText("Must be an email address");
  await expect(dialog.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByLabel("Email")).toHaveAccessibleDescription(/Must be an email address/);
  await dialog.getByLabel("Email").fill("nadia@example.test");
  await dialog.getByLabel("Role").selectOption("curator");
  await dialog.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByRole("row").filter({ hasText: "nadia@example.test" })).toBeVisible();
});
