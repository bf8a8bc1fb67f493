import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrateDatabase } from "@/server/db/migrate";
import { CodeOlderThanDatabase } from "@/server/db/migration-state";
import { committedMigrationNames, MIGRATIONS_DIR } from "@/server/db/migrations-dir";
import { openDatabase } from "@/server/db/open";
import { applyMigrations } from "@/server/db/schema-engine";
import { adminQuery, databaseUrl, randomName, usePostgres } from "../helpers/template";

describe("migrations", () => {
  it("apply to an empty database, in order, and a second run applies nothing", async () => {
    let drop = async () => {};
    let opened: Awaited<ReturnType<typeof openDatabase>>;
    if (usePostgres) {
      const name = randomName("qm_empty");
      await adminQuery(`CREATE DATABASE ${name}`);
      opened = await openDatabase({ url: databaseUrl(name) });
      drop = () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } else {
      opened = await openDatabase({ dataDir: "memory://" });
    }
    try {
      const committed = await committedMigrationNames();
      expect(committed.length).toBeGreaterThan(0);
      expect(await applyMigrations(opened.adapterFactory)).toEqual(committed);
      expect(await applyMigrations(opened.adapterFactory)).toEqual([]);
      // The schema the client expects is really there: a round trip through a model.
      await opened.db.installationSetting.create({ data: { key: "probe", value: { ok: true } } });
      expect((await opened.db.installationSetting.findUnique({ where: { key: "probe" } }))?.value).toEqual({
        ok: true,
      });
    } finally {
      await opened.close();
      await drop();
    }
  });

  it("moving definitions out of the tool table keeps every definition a catalog held", async () => {
    // The catalog as the migration before 20261130134404_staged_tool_definitions left it.
    const before = await mkdtemp(path.join(os.tmpdir(), "qm-migrations-"));
    const opened = await openDatabase({ dataDir: "memory://" });
    try {
      const names = await committedMigrationNames();
      const upgrade = names.indexOf("20261130134404_staged_tool_definitions");
      expect(upgrade).toBeGreaterThan(0);
      for (const name of names.slice(0, upgrade))
        await cp(path.join(MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
      await cp(path.join(MIGRATIONS_DIR, "migration_lock.toml"), path.join(before, "migration_lock.toml"));
      await applyMigrations(opened.adapterFactory, before);

      const pglite = opened.pglite;
      if (!pglite) throw new Error("expected the embedded database");
      await pglite.exec(`
        INSERT INTO source (id, name, kind, "updatedAt") VALUES ('s1', 'one', 'mcp_connection', now()), ('s2', 'two', 'mcp_connection', now());
        INSERT INTO tool (id, "sourceId", "nativeName", definition, "definitionBytes", "definitionHash", compatibility)
        VALUES ('t1', 's1', 'lookup', '{"name":"lookup"}', 17, 'h-lookup', 'compatible'),
               ('t2', 's1', 'search', '{"name":"search"}', 17, 'h-search', 'compatible'),
               ('t3', 's2', 'lookup', '{"name":"lookup"}', 17, 'h-lookup', 'compatible');`);

      expect(await applyMigrations(opened.adapterFactory)).toEqual(names.slice(upgrade));
      const stored = await opened.db.toolDefinition.findMany({ orderBy: { hash: "asc" } });
      expect(stored.map((d) => [d.hash, d.definition, d.bytes])).toEqual([
        ["h-lookup", '{"name":"lookup"}', 17],
        ["h-search", '{"name":"search"}', 17],
      ]);
      expect(await opened.db.tool.count()).toBe(3);
    } finally {
      await opened.close();
      await rm(before, { recursive: true, force: true });
    }
  });

  it("an instance whose code lacks the database's newest migration is refused, naming it", async () => {
    const { opened, url, drop } = await emptyDatabase();
    const older = await mkdtemp(path.join(os.tmpdir(), "qm-older-"));
    try {
      const names = await committedMigrationNames();
      await migrateDatabase(opened, { url, waitMs: 60_000 });
      for (const name of names.slice(0, -1))
        await cp(path.join(MIGRATIONS_DIR, name), path.join(older, name), { recursive: true });
      const refused = await migrateDatabase(opened, { url, waitMs: 60_000, dir: older }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(CodeOlderThanDatabase);
      expect((refused as Error).message).toContain("older than its database");
      expect((refused as Error).message).toContain(names.at(-1));
      // The current code finds nothing to do and takes no lock.
      expect(await migrateDatabase(opened, { url, waitMs: 60_000 })).toEqual({
        applied: [],
        locked: false,
        waitedMs: 0,
      });
    } finally {
      await opened.close();
      await drop();
      await rm(older, { recursive: true, force: true });
    }
  });

  it.runIf(usePostgres)(
    "instances starting at once on an empty database: one migrates, the others wait for it",
    async () => {
      const { opened: first, url, drop } = await emptyDatabase();
      const others = [await openDatabase({ url }), await openDatabase({ url })];
      try {
        const results = await Promise.all(
          [first, ...others].map((opened) => migrateDatabase(opened, { url, waitMs: 120_000, progressEveryMs: 200 })),
        );
        const committed = await committedMigrationNames();
        expect(results.filter((r) => r.applied.length)).toHaveLength(1);
        expect(results.find((r) => r.applied.length)?.applied).toEqual(committed);
        expect(results.every((r) => r.locked)).toBe(true);
      } finally {
        for (const o of others) await o.close();
        await first.close();
        await drop();
      }
    },
  );
});

async function emptyDatabase() {
  if (!usePostgres)
    return { opened: await openDatabase({ dataDir: "memory://" }), url: undefined, drop: async () => {} };
  const name = randomName("qm_empty");
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = databaseUrl(name);
  return {
    opened: await openDatabase({ url }),
    url,
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
