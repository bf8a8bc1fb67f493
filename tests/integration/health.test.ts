import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/health/route";
import { installDatabase } from "@/server/db";
import { committedMigrationNames } from "@/server/db/migrations-dir";
import { openDatabase } from "@/server/db/open";
import { withTestDatabase } from "../helpers/db";

const test = withTestDatabase();

describe("GET /api/health", () => {
  it("answers 200 with the database reachable and migrations current", async () => {
    const res = await GET();
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body).toMatchObject({
      status: "ok",
      process: "up",
      database: { reachable: true },
      migrations: { current: true, pending: [] },
    });
  });

  it("answers 503 and lists what is pending on a database that was never migrated", async () => {
    const fresh = await openDatabase({ dataDir: "memory://" });
    installDatabase(fresh);
    try {
      const res = await GET();
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body.database.reachable).toBe(true);
      expect(body.migrations).toEqual({ current: false, pending: await committedMigrationNames() });
    } finally {
      await fresh.close();
      installDatabase(test.current());
    }
  });
});
