/**
 * `npm start` as a process manager runs it: npm stays node's parent (npm cannot exec), so
 * a server whose npm is killed with SIGKILL must not go on serving with nobody to stop it:
 * it drains as on SIGTERM and exits. A real `npm start` (production build) on an embedded
 * database of its own; once is enough (skipped on the PostgreSQL run).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../helpers/instances";
import { type SpawnedServer, spawnServer } from "../helpers/spawn-server";
import { usePostgres } from "../helpers/template";

let npm: SpawnedServer | undefined;
afterAll(() => npm?.stop());

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
    npm = await spawnServer({
      name: "npm-start",
      command: "npm",
      args: ["start"],
      env: { QM_BUILD: "0", LOG_LEVEL: "info" },
    });
    const { ready, output: out } = npm;
    await expect.poll(ready, { timeout: 120_000, interval: 500 }).toBe(true);
    // npm's child is the server itself (the script execs node: no shell between them).
    const children = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(npm.pid)])
      .toString()
      .trim()
      .split("\n");
    expect(children).toHaveLength(1);
    expect(children[0]).toMatch(/node .*scripts\/start\.ts/);
    const server = Number(children[0]?.trim().split(/\s+/)[0]);

    npm.child.kill("SIGKILL");
    await expect.poll(() => alive(server), { timeout: 60_000, interval: 250 }).toBe(false);
    expect(out()).toContain("npm, which started this server, is gone");
    expect(out()).toContain('"msg":"stopped"');
    expect(await ready()).toBe(false);
  }, 240_000);
});
