import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { test as base, expect, type Page } from "@playwright/test";

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** Calls a tRPC procedure as the page's signed-in user, expecting success. */
export async function trpc(page: Page, procedure: string, input: unknown) {
  const res = await page.request.post(`/api/trpc/${procedure}`, { data: { json: input } });
  expect(res.status(), `${procedure}: ${await res.text()}`).toBe(200);
  return (await res.json()).result.data.json;
}

/** Reads a tRPC query as the page's signed-in user, expecting success. */
export async function trpcQuery<T>(page: Page, procedure: string, input: unknown): Promise<T> {
  const res = await page.request.get(
    `/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`,
  );
  expect(res.status(), `${procedure}: ${await res.text()}`).toBe(200);
  return (await res.json()).result.data.json as T;
}

export function demoAdmin(): { email: string; password: string } {
  return JSON.parse(readFileSync(path.resolve(".data-e2e", "demo-admin.json"), "utf8"));
}

export async function signIn(page: Page, creds = demoAdmin()) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(creds.email);
  await page.getByLabel("Password").fill(creds.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/tools\/catalog/);
}

/** Runs axe in the page; returns the violations of serious or critical impact. */
export async function seriousA11yViolations(page: Page) {
  // After a client-side navigation Next streams the new page's <title> in a moment later.
  await expect(page).toHaveTitle(/\S/);
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    // @ts-expect-error injected above
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations as { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

export async function saveScreenshot(page: Page, name: string) {
  await page.screenshot({ path: path.join("e2e-artifacts", "screenshots", `${name}.png`), fullPage: true });
}

export const test = base;
export { expect };
