/**
 * `npm start` as a process manager runs it: npm stays node's parent (npm cannot exec), so
 * a server whose npm is killed with SIGKILL must not go on serving with nobody to stop it:
 * it drains as on SIGTERM and exits. A real `npm start` (production build) on an embedded
 * database of its own; once is enough (skipped on the PostgreSQL run).
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureBuilt, freePort } from "../helpers/instances";
import { usePostgres } from "../helpers/template";

const ROOT = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "qm-npm-start-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Whether a process runs (a zombie left to an init that does not reap counts as gone). */
function alive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  const state = readFileSync(stat, "utf8").split(") ")[1]?.[0];
  return state !== "Z" && state !== "X";
}

describe.skipIf(usePostgres || process.platform !== "linux")("npm start", () => {
  it("a server whose npm is killed (SIGKILL) drains and exits instead of serving on, orphaned", async () => {
    ensureBuilt();
    const port = await freePort();
    const npm = spawn("npm", ["start"], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        QM_DATA_DIR: dataDir,
        QM_BASE_URL: `http://127.0.0.1:${port}`,
        QM_BUILD: "0",
        QM_DEMO: "0",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    npm.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    npm.stderr?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    const url = `http://127.0.0.1:${port}`;
    const ready = () =>
      fetch(`${url}/api/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
    await expect.poll(ready, { timeout: 120_000, interval: 500 }).toBe(true);
    // npm's child is the server itself (the script execs node: no shell between them).
    const children = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(npm.pid)])
      .toString()
      .trim()
      .split("\n");
    expect(children).toHaveLength(1);
    expect(children[0]).toMatch(/node .*scripts\/start\.ts/);
    const server = Number(children[0]?.trim().split(/\s+/)[0]);

    npm.kill("SIGKILL");
    await expect.poll(() => alive(server), { timeout: 60_000, interval: 250 }).toBe(false);
    expect(out).toContain("npm, which started this server, is gone");
    expect(out).toContain('"msg":"stopped"');
    expect(await ready()).toBe(false);
  }, 240_000);
});
