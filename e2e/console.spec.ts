import { NAV } from "@/components/layout/nav";
import { expect, saveScreenshot, seriousA11yViolations, signIn, test } from "./fixtures";

const PAGES = NAV.flatMap((s) => s.items);

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("the sign-in page guards the console and refuses a wrong password with a message", async ({ page }) => {
    await page.goto("/tools/catalog");
    await expect(page).toHaveURL(/\/sign-in/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await saveScreenshot(page, "sign-in");
    await page.getByLabel("Email").fill("admin@quartermaster.demo");
    await page.getByLabel("Password").fill("definitely-not-it");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "do not match" })).toBeVisible();
    await expect(page).toHaveURL(/\/sign-in/);
  });
});

test.describe("signing in and out", () => {
  // Its own session: signing out must not end the one the other tests share.
  test.use({ storageState: { cookies: [], origins: [] } });

  test("an admin signs in, visits every section with no serious accessibility violations, toggles the theme and signs out", async ({
    page,
  }) => {
    // Twelve pages, each with axe: on two shared vCPUs this ran past the default minute.
    test.setTimeout(180_000);
    await signIn(page);
    for (const item of PAGES) {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: item.label, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${item.href}$`));
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByTestId("loading-state")).toHaveCount(0);
      await expect(page.getByRole("link", { name: item.label, exact: true })).toHaveAttribute("aria-current", "page");
      expect(await seriousA11yViolations(page), `accessibility of ${item.href}`).toEqual([]);
      await saveScreenshot(page, `light${item.href.replaceAll("/", "-")}`);
    }

    // Theme: light → dark → system, remembered across a reload.
    const html = page.locator("html");
    await page.emulateMedia({ colorScheme: "light" });
    const toggle = page.getByTestId("theme-toggle");
    while (!(await toggle.getAttribute("aria-label"))?.startsWith("Theme: Light")) await toggle.click();
    await expect(html).not.toHaveClass(/dark/);
    await toggle.click();
    await expect(html).toHaveClass(/dark/);
    await page.reload();
    await expect(html).toHaveClass(/dark/);
    expect(await seriousA11yViolations(page), "accessibility in dark theme").toEqual([]);
    await saveScreenshot(page, "dark-settings-audit-log");

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto("/settings/users");
    await expect(page).toHaveURL(/\/sign-in/);
  });
});

test("the console is keyboard-reachable: the first Tab offers to skip to the content", async ({ page }) => {
  await page.goto("/tools/catalog");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
});
