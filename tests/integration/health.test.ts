import { describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as ready } from "@/app/api/ready/route";
import { installDatabase } from "@/server/db";
import { committedMigrationNames } from "@/server/db/migrations-dir";
import { openDatabase } from "@/server/db/open";
import { startDraining } from "@/server/instance";
import { withTestDatabase } from "../helpers/db";

const test = withTestDatabase();

describe("GET /api/health (liveness) and /api/ready (readiness)", () => {
  it("both answer 200 with the database reachable and migrations current", async () => {
    const res = await health();
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toMatchObject({
      status: "ok",
      process: "up",
      database: { reachable: true },
      migrations: { current: true, pending: [], newer: [] },
      draining: false,
    });
    const r = await ready();
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ ready: true });
  });

  it("on a database that was never migrated: alive (200), not ready (503), listing what is pending", async () => {
    const fresh = await openDatabase({ dataDir: "memory://" });
    installDatabase(fresh);
    try {
      const res = await health();
      expect(res.status).toBe(200);
      const r = await ready();
      expect(r.status).toBe(503);
      const body = await r.json();
      expect(body.ready).toBe(false);
      expect(body.database.reachable).toBe(true);
      expect(body.migrations).toEqual({ current: false, pending: await committedMigrationNames(), newer: [] });
    } finally {
      await fresh.close();
      installDatabase(test.current());
    }
  });

  it("a migration a newer version applied is reported but keeps this instance ready (a rolling upgrade)", async () => {
    const db = test.current().db;
    await db.$executeRawUnsafe(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
       VALUES ('newer-probe', 'x', '29991231000000_from_a_newer_version', now(), now(), 1)`,
    );
    try {
      const r = await ready();
      expect(r.status).toBe(200);
      expect((await r.json()).migrations.newer).toEqual(["29991231000000_from_a_newer_version"]);
    } finally {
      await db.$executeRawUnsafe(`DELETE FROM _prisma_migrations WHERE id = 'newer-probe'`);
    }
  });

  it("with the database unreachable: alive (200), not ready (503), saying why", async () => {
    const gone = await openDatabase({ url: "postgres://postgres@127.0.0.1:1/nowhere" });
    installDatabase(gone);
    try {
      expect((await health()).status).toBe(200);
      const r = await ready();
      expect(r.status).toBe(503);
      const body = await r.json();
      expect(body).toMatchObject({ ready: false, database: { reachable: false } });
      expect(body.database.error).toBeTruthy();
    } finally {
      await gone.close();
      installDatabase(test.current());
    }
  });

  // Last: draining is for good, as in a process that received SIGTERM.
  it("a draining instance is alive but not ready", async () => {
    startDraining();
    expect((await health()).status).toBe(200);
    const r = await ready();
    expect(r.status).toBe(503);
    expect(await r.json()).toMatchObject({ ready: false, draining: true, database: { reachable: true } });
  });
});
