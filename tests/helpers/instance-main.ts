/**
 * One more app instance for tests of what instances share (rate limits on PostgreSQL):
 * the product's routes (tests/helpers/app-server.ts) in a process of its own, on the
 * database DATABASE_URL names, printing one JSON line with its URL when it serves.
 *
 *   DATABASE_URL=postgres://… node --import tsx tests/helpers/instance-main.ts
 */
import { closeDatabase, getDb } from "@/server/db";
import { LIMITS, type LimitName } from "@/server/limits";
import { serveApp } from "./app-server";

async function main() {
  // Release settings the test runs this instance with (startOtherInstance's `limits`).
  for (const [name, value] of Object.entries(
    JSON.parse(process.env.QM_TEST_LIMITS || "{}") as Record<string, number>,
  )) {
    if (!(name in LIMITS)) throw new Error(`QM_TEST_LIMITS: ${name} is not a limit in server/limits.ts`);
    (LIMITS[name as LimitName] as { value: number }).value = value;
  }
  await getDb();
  const app = await serveApp();
  console.log(JSON.stringify({ url: app.url }));
  const stop = async () => {
    await app.close();
    await closeDatabase();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
