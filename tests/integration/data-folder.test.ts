/**
 * The embedded database's folder: private to its owner (anyone who can write its files
 * can add an admin key), and locked to one process by a lock that dies with its holder.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/server/db/open";
import { usePostgres } from "../helpers/template";

const folders: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function newFolder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "qm-data-"));
  folders.push(dir);
  return path.join(dir, "data");
}

function createAdmin(dataDir: string) {
  return spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/qm.ts",
      "create-admin",
      "--email",
      "owner@example.test",
      "--password",
      "correct-horse-battery",
    ],
    {
      env: { ...process.env, QM_DATA_DIR: dataDir, NODE_ENV: "production", LOG_LEVEL: "silent", QM_SECRET: "" },
      encoding: "utf8",
      timeout: 90_000,
    },
  );
}

/** Every entry under `dir` whose mode lets anyone but the owner in. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const walk = (entry: string) => {
    const stat = statSync(entry);
    if (stat.mode & 0o077) found.push(`${path.relative(dir, entry) || "."} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(entry)) walk(path.join(entry, name));
  };
  walk(dir);
  return found;
}

// Each test spawns the CLI (tsx compiling scripts/qm.ts, then PGlite's first start) once or
// twice; on a loaded two-vCPU machine that alone passed 60 s, so these get the CLI's own bound.
describe.skipIf(usePostgres)("the embedded data folder", { timeout: 180_000 }, () => {
  it("is created private (folders 0700, files 0600), and an older folder others could write is closed again", () => {
    const fresh = newFolder();
    const created = createAdmin(fresh);
    expect(created.stderr).toBe("");
    expect(readdirSync(path.join(fresh, "pglite")).length).toBeGreaterThan(5);
    expect(openToOthers(fresh)).toEqual([]);

    // As an older version left it: everything readable and writable by every local user.
    const old = newFolder();
    expect(createAdmin(old).status).toBe(0);
    const walk = (entry: string) => {
      const stat = statSync(entry);
      chmodSync(entry, stat.isDirectory() ? 0o777 : 0o666);
      if (stat.isDirectory()) for (const name of readdirSync(entry)) walk(path.join(entry, name));
    };
    walk(old);
    expect(openToOthers(old).length).toBeGreaterThan(5);
    expect(createAdmin(old).status).toBe(0);
    expect(openToOthers(old)).toEqual([]);
  });

  it("is locked by a lock that dies with its holder: not a stale pid file, a zombie's or a recycled pid", async () => {
    const dataDir = newFolder();
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    // A lock file naming a live process that is not Quartermaster (a recycled pid): not a lock.
    writeFileSync(path.join(dataDir, "quartermaster.lock"), JSON.stringify({ pid: process.pid, since: "2020-01-01" }));
    expect(createAdmin(dataDir).status).toBe(0);

    // A live holder: refused, naming it.
    const holder = spawn(process.execPath, ["--import", "tsx", "tests/helpers/hold-data-folder.ts"], {
      env: { ...process.env, QM_DATA_DIR: dataDir, NODE_ENV: "production", LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(holder);
    await new Promise<void>((resolve) => holder.stdout?.on("data", (c: Buffer) => c.includes("held") && resolve()));
    const refused = createAdmin(dataDir);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`is in use by process ${holder.pid}`);
    await expect(openDatabase({ dataDir })).rejects.toThrow(`in use by process ${holder.pid}`);

    // Killed outright, the holder leaves its pid file behind but not its lock: a restart goes ahead at once.
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    expect(createAdmin(dataDir).status).toBe(0);
  });
});
