import { describe, expect, it } from "vitest";
import { committedMigrationNames } from "@/server/db/migrations-dir";
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
});
