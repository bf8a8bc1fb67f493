/**
 * npm run eval:memory [-- file.json]: memory search's retrieval quality on the LoCoMo
 * development set (../shared/data/locomo-dev.json by default; or our own fixture,
 * eval/fixtures/memory-retrieval.json), on a fresh embedded
 * database (or QM_EVAL_DATABASE_URL, a PostgreSQL database to fill); first, write-time
 * screening's precision and recall on eval/fixtures/memory-screening.json.
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import { installDatabase } from "@/server/db";
import { openDatabase } from "@/server/db/open";
import { applyMigrations } from "@/server/db/schema-engine";
import { loadFixture, loadLocomo, TUNING_PART } from "./locomo";
import { evaluateRetrieval, formatReport } from "./memory-eval";
import { loadScreeningFixture, screeningReports } from "./memory-screening";

// Screening needs no database: its figures come first, before the slow retrieval run.
console.log(`${screeningReports(loadScreeningFixture())}\n`);

const file = process.argv[2] ?? path.resolve(process.cwd(), "../shared/data/locomo-dev.json");
const opened = await openDatabase(
  process.env.QM_EVAL_DATABASE_URL ? { url: process.env.QM_EVAL_DATABASE_URL } : { dataDir: "memory://" },
);
await applyMigrations(opened.adapterFactory);
installDatabase(opened);
const started = performance.now();
// LoCoMo is an array of samples; our own fixture an object with conversations.
const ours = !Array.isArray(JSON.parse(readFileSync(file, "utf8")));
// LoCoMo's development half is reported in two parts too: tuned on, and only checked.
const report = await evaluateRetrieval(
  ours ? loadFixture(file) : loadLocomo(file),
  ours ? undefined : (id) => (TUNING_PART.has(id) ? "tuning part" : "check part"),
);
console.log(formatReport(report));
console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s; data: ${path.relative(process.cwd(), file)})`);
await opened.close();
process.exit(0);
