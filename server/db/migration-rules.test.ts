import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { breakingStatements, contractNote, EXPAND_CONTRACT_SINCE } from "./migration-rules";
import { committedMigrationNames, MIGRATIONS_DIR } from "./migrations-dir";

describe("expand/contract: migrations an older running version survives", () => {
  it("every migration after the rule began only adds, or says in a `-- contract:` line why it may take away", async () => {
    const names = await committedMigrationNames();
    expect(names).toContain(EXPAND_CONTRACT_SINCE);
    const offending: string[] = [];
    for (const name of names.filter((n) => n > EXPAND_CONTRACT_SINCE)) {
      const sql = await readFile(path.join(MIGRATIONS_DIR, name, "migration.sql"), "utf8");
      if (contractNote(sql)) continue;
      for (const found of breakingStatements(sql))
        offending.push(`${name}: ${found.rule}: ${found.statement.slice(0, 160)}`);
    }
    // See docs/postgresql.md, Rolling upgrades: add before use, remove only once no running version needs it.
    expect(offending).toEqual([]);
  });

  it.each([
    ['DROP TABLE "tool";', "DROP TABLE"],
    ['ALTER TABLE "tool" DROP COLUMN "definition";', "DROP COLUMN"],
    ['ALTER TABLE "tool" RENAME COLUMN "a" TO "b";', "RENAME"],
    ['ALTER TABLE "tool" RENAME TO "tools";', "RENAME"],
    ['ALTER TABLE "tool" ALTER COLUMN "bytes" SET DATA TYPE BIGINT;', "ALTER COLUMN … TYPE"],
    ['ALTER TABLE "tool" ALTER COLUMN "bytes" TYPE BIGINT;', "ALTER COLUMN … TYPE"],
    ['ALTER TABLE "tool" ALTER COLUMN "hash" SET NOT NULL;', "SET NOT NULL"],
    ['ALTER TABLE "tool" ALTER COLUMN "hash" DROP DEFAULT;', "DROP DEFAULT"],
    ['ALTER TABLE "tool" ADD COLUMN "owner" TEXT NOT NULL;', "ADD COLUMN … NOT NULL without DEFAULT"],
    ['DROP TYPE "Kind";', "DROP TYPE"],
    ["ALTER TYPE \"Kind\" RENAME VALUE 'a' TO 'b';", "RENAME"],
    ['TRUNCATE "tool";', "TRUNCATE"],
  ])("flags %s", (sql, rule) => {
    expect(breakingStatements(sql).map((f) => f.rule)).toContain(rule);
  });

  it.each([
    'CREATE TABLE "x" ("id" TEXT NOT NULL, CONSTRAINT "x_pkey" PRIMARY KEY ("id"));',
    'ALTER TABLE "tool" ADD COLUMN "owner" TEXT;',
    'ALTER TABLE "tool" ADD COLUMN "state" TEXT NOT NULL DEFAULT \'on\';',
    'CREATE INDEX "tool_owner_idx" ON "tool"("owner");',
    "ALTER TYPE \"Kind\" ADD VALUE 'sdk';",
    "-- DROP TABLE tool; (a comment)\nINSERT INTO note (body) VALUES ('drop table tool');",
  ])("passes an additive statement: %s", (sql) => {
    expect(breakingStatements(sql)).toEqual([]);
  });

  it("takes a contract note only with a reason", () => {
    expect(contractNote('-- contract: "definition" is unread since 0.4, which every instance runs\nDROP ...')).toMatch(
      /unread since/,
    );
    expect(contractNote("-- contract:\nALTER TABLE x DROP COLUMN y;")).toBeNull();
    expect(contractNote("-- contract: ok\n")).toBeNull();
  });
});
