import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.QM_E2E_PORT ?? 3210);
export const E2E_DATA_DIR = ".data-e2e";

/**
 * Browser tests against the product as `npm start` runs it (built, migrated, demo
 * seeded, demo MCP server beside it), on its own port and data folder. Debian's
 * chromium is used; Playwright never downloads a browser.
 */
export default defineConfig({
  testDir: "e2e",
  outputDir: "e2e-artifacts/results",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["html", { outputFolder: "e2e-artifacts/report", open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: "on",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.QM_CHROMIUM ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts/ },
    // Before any test adds data: the console exactly as a new user of the demo sees it.
    {
      name: "first-look",
      dependencies: ["setup"],
      testMatch: /first-look\.spec\.ts/,
      use: { storageState: "e2e-artifacts/.auth/admin.json" },
    },
    {
      name: "console",
      dependencies: ["setup", "first-look"],
      testIgnore: /first-look\.spec\.ts/,
      // Signed in once for all tests: the sign-in endpoint is rate-limited per address.
      use: { storageState: "e2e-artifacts/.auth/admin.json" },
    },
  ],
  webServer: {
    command: `rm -rf ${E2E_DATA_DIR} && node --import tsx scripts/start.ts`,
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      QM_DATA_DIR: E2E_DATA_DIR,
      QM_DEMO: "1",
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
    },
  },
});
