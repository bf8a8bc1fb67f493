/**
 * The product with the long-lists data set (tests/helpers/long-lists.ts) in a data folder
 * of its own, for e2e/long-lists.spec.ts and bench/lists.ts: migrates and seeds a new
 * folder (kept for the next start, so a second run does not seed again), serves the
 * existing build, and prints one JSON line — its URL and the seeded ids — when ready.
 *
 *   QM_DATA_DIR=… PORT=… node --import tsx tests/helpers/long-lists-server.ts
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "@/env";
import { closeDatabase } from "@/server/db";
import { prepareDatabase } from "@/server/domain/system/bootstrap";
import { startHttpServer } from "@/server/http/serve";
import { type SeededLongLists, seedLongLists } from "./long-lists";

const seededFile = path.join(env.QM_DATA_DIR, "long-lists.json");

async function main() {
  const started = performance.now();
  const { firstRun } = await prepareDatabase();
  let seeded: SeededLongLists;
  if (firstRun || !existsSync(seededFile)) {
    seeded = await seedLongLists();
    writeFileSync(seededFile, JSON.stringify(seeded));
  } else seeded = JSON.parse(readFileSync(seededFile, "utf8"));
  const seedMs = Math.round(performance.now() - started);
  const server = await startHttpServer({ dev: false, host: env.HOST, port: env.PORT, dir: process.cwd() });
  console.log(JSON.stringify({ url: server.url, seedMs, ...seeded }));
  const stop = async () => {
    await server.close();
    await closeDatabase();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
}

main().catch(async (error: unknown) => {
  console.error(error);
  await closeDatabase().catch(() => {});
  process.exit(1);
});
