/**
 * `next build` when there is no build or a source file is newer than it: what `npm start`
 * does first (unless QM_BUILD=0), and what tests that start real instances do once.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const BUILD_INPUTS = [
  "app",
  "components",
  "server",
  "sdk/src",
  "public",
  "env.ts",
  "next.config.js",
  "postcss.config.mjs",
  "package-lock.json",
  "tsconfig.json",
];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === "generated" || entry === "node_modules") continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Builds when there is no build or a source file is newer than it. */
export function buildIfNeeded(ROOT: string): void {
  const buildId = path.join(ROOT, ".next", "BUILD_ID");
  const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const changed = Math.max(...BUILD_INPUTS.map((p) => newestMtime(path.join(ROOT, p))));
  if (built && built >= changed) return;
  console.log(built ? "Sources changed since the last build; building…" : "No build yet; building (about a minute)…");
  const result = spawnSync(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) {
    console.error("next build failed.");
    process.exit(result.status ?? 1);
  }
}
