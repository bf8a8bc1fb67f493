import { test as setup } from "@playwright/test";
import { signIn } from "./fixtures";

setup("sign in as the demo admin", async ({ page }) => {
  await signIn(page);
  await page.context().storageState({ path: "e2e-artifacts/.auth/admin.json" });
});
