import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { committedMigrationNames, MIGRATIONS_DIR } from "./migrations-dir";

describe("committed migrations", () => {
  it("keep semicolons out of comments: on PostgreSQL a script is cut into statements at each one", async () => {
    const offending: string[] = [];
    for (const name of await committedMigrationNames()) {
      const sql = await readFile(path.join(MIGRATIONS_DIR, name, "migration.sql"), "utf8");
      for (const [i, line] of sql.split("\n").entries()) {
        const comment = line.indexOf("--");
        if (comment >= 0 && line.slice(comment).includes(";")) offending.push(`${name}:${i + 1}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
