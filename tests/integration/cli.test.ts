import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/server/db/open";
import { adminQuery, databaseUrl, randomName, usePostgres } from "../helpers/template";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "qm-cli-"));
const pgName = randomName("qm_cli");
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  if (usePostgres) await adminQuery(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
});

function qm(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, QM_DATA_DIR: dataDir, NODE_ENV: "production", LOG_LEVEL: "silent" };
  if (usePostgres) env.DATABASE_URL = databaseUrl(pgName);
  // The environment docs/deploy.md names for it: the database only, no QM_SECRET.
  delete env.QM_SECRET;
  return spawnSync(process.execPath, ["--import", "tsx", "scripts/qm.ts", ...args], {
    env,
    encoding: "utf8",
    timeout: 90_000,
  });
}

describe("npm run qm -- create-admin", () => {
  it("migrates a new database and creates an admin who can sign in; a second run is idempotent", async () => {
    if (usePostgres) await adminQuery(`CREATE DATABASE ${pgName}`);
    const first = qm(["create-admin", "--email", "Founder@Example.test", "--password", "correct-horse-battery"]);
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain("Created admin Founder@Example.test.");
    const again = qm(["create-admin", "--email", "founder@example.test", "--password", "correct-horse-battery"]);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain("now an enabled admin");

    const opened = await openDatabase(usePostgres ? { url: databaseUrl(pgName) } : { dataDir });
    try {
      const users = await opened.db.user.findMany({ select: { email: true, role: true } });
      expect(users).toEqual([{ email: "founder@example.test", role: "admin" }]);
      const account = await opened.db.account.findFirstOrThrow({ where: { providerId: "credential" } });
      expect(account.password).toBeTruthy();
      expect(account.password).not.toContain("correct-horse-battery");
    } finally {
      await opened.close();
    }
  });

  it("refuses a short password with the rule, and an unknown command with usage", () => {
    const short = qm(["create-admin", "--email", "a@example.test", "--password", "short"]);
    expect(short.status).toBe(1);
    expect(short.stderr).toContain("password: must be at least 12 characters");
    const unknown = qm(["make-coffee"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("Usage:");
  });
});
