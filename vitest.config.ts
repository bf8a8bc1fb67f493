import path from "node:path";
import { defineConfig } from "vitest/config";

// "server-only" is Next's guard; outside Next it is nothing, as tsconfig's paths say for tsx.
const alias = {
  "@": path.resolve(import.meta.dirname),
  "server-only": path.resolve(import.meta.dirname, "server/server-only.ts"),
};
const env: Record<string, string> = {
  NODE_ENV: "test",
  QM_SECRET: "test-secret-test-secret-test-secret-0123456789",
  QM_DATA_DIR: path.resolve(import.meta.dirname, ".data-test"),
  QM_DEMO: "0",
  QM_SCHEDULER: "0",
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: [
            "*.test.ts",
            "server/**/*.test.ts",
            "components/**/*.test.ts",
            "universal/**/*.test.ts",
            "scripts/**/*.test.ts",
            "sdk/src/**/*.test.ts",
            "eval/**/*.test.ts",
          ],
          env,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/helpers/global-setup.ts"],
          env,
          // Each file gets its own database; PGlite's start-up dominates, not the tests.
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: "forks",
        },
      },
    ],
  },
});
