/**
 * `next build` when there is no build or a source file is newer than it: what `npm start`
 * does first (unless QM_BUILD=0), and what tests that start real instances do once.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { claimFolderLock } from "@/server/db/lock";

const BUILD_INPUTS = [
  "app",
  "components",
  "server",
  "universal",
  "sdk/src",
  "public",
  "env.ts",
  "next.config.js",
  "postcss.config.mjs",
  "package-lock.json",
  "tsconfig.json",
];

/**
 * What a first build takes where it was measured, on one 2-vCPU machine: 26 s of build (36 s
 * from `npm start` to healthy) with nothing else running, 3.6 minutes to healthy at a load
 * of 13–15. A busy machine is the common case on shared hosts, so both are said (issue 30).
 * The README says the same.
 */
export const FIRST_BUILD_EXPECTED = "under a minute on a quiet 2-vCPU machine, up to about 4 on a busy one";
/** A line saying the build is still going, this often: Next prints nothing while it compiles. */
const PROGRESS_EVERY_MS = 20_000;

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

/** Why a build is needed ("none yet", "sources changed"), or null when the last one is current. */
export function buildNeeded(ROOT: string): "none yet" | "sources changed" | null {
  const buildId = path.join(ROOT, ".next", "BUILD_ID");
  const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const changed = Math.max(...BUILD_INPUTS.map((p) => newestMtime(path.join(ROOT, p))));
  if (built && built >= changed) return null;
  return built ? "sources changed" : "none yet";
}

const NEXT_BUILD = (ROOT: string) => [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"];
const BUILD_ENV = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

function failed(status: number | null): never {
  console.error("next build failed.");
  process.exit(status ?? 1);
}

/** "1 min 20 s" */
export function elapsedInWords(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}`;
}

/** How often a start that found another building looks whether it has finished. */
const BUILD_WAIT_POLL_MS = 1_000;

/**
 * Builds when needed, saying what to expect and how long it has been going (npm start).
 * One build at a time in a folder: two instances started together from one checkout used to
 * run two `next build`s into the same .next, and one failed. The second waits for the
 * first, then finds the build current.
 */
export async function buildIfNeededWithProgress(ROOT: string): Promise<void> {
  if (!buildNeeded(ROOT)) return;
  let said = false;
  for (;;) {
    const claim = await claimFolderLock(ROOT, "build");
    if ("release" in claim) {
      try {
        return await buildWithProgress(ROOT);
      } finally {
        await claim.release();
      }
    }
    if (!said) {
      said = true;
      console.log(
        `Another start (${claim.heldBy ? `process ${claim.heldBy}` : "another process"}) is building the console in this folder; waiting for it…`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, BUILD_WAIT_POLL_MS));
  }
}

async function buildWithProgress(ROOT: string): Promise<void> {
  // Looked at again under the lock: a build that finished while this start waited is current.
  const why = buildNeeded(ROOT);
  if (!why) return;
  console.log(
    why === "none yet"
      ? `No build yet: building the console once (${FIRST_BUILD_EXPECTED}); later starts skip this.`
      : "Sources changed since the last build; building again…",
  );
  const started = Date.now();
  const ticker = setInterval(
    () => console.log(`  … still building (${elapsedInWords(Date.now() - started)} so far)`),
    PROGRESS_EVERY_MS,
  );
  const status = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, NEXT_BUILD(ROOT), { stdio: "inherit", env: BUILD_ENV });
    child.on("exit", (code) => resolve(code));
    child.on("error", () => resolve(1));
  }).finally(() => clearInterval(ticker));
  if (status !== 0) failed(status);
  console.log(`Built in ${elapsedInWords(Date.now() - started)}.`);
}

/** Builds when there is no build or a source file is newer than it (tests that start instances). */
export function buildIfNeeded(ROOT: string): void {
  const why = buildNeeded(ROOT);
  if (!why) return;
  console.log(why === "none yet" ? `No build yet; building (${FIRST_BUILD_EXPECTED})…` : "Sources changed; building…");
  const result = spawnSync(process.execPath, NEXT_BUILD(ROOT), { stdio: "inherit", env: BUILD_ENV });
  if (result.status !== 0) failed(result.status);
}
