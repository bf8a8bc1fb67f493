/**
 * The console as a new user of the demo first sees it, before any other test adds data
 * (its own project, which every other test waits for). The README's image is this
 * screenshot: `npm run readme:image` copies it to docs/images/console.png.
 */
import { expect, test } from "./fixtures";

test("a new user's first look: the demo catalog, for the README", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/tools/catalog");
  await expect(page.getByRole("heading", { level: 1, name: "Tools Catalog" })).toBeVisible();
  await expect(page.getByTestId("catalog-row").first()).toBeVisible();
  await expect(page.getByText("Loading rows")).toBeHidden();
  await page.screenshot({ path: "e2e-artifacts/screenshots/readme-console.png" });
});
