/**
 * npm run eval:memory [-- path/to/locomo.json]: memory search's retrieval quality on the
 * LoCoMo development set (../shared/data/locomo-dev.json by default), on a fresh embedded
 * database (or QM_EVAL_DATABASE_URL, a PostgreSQL database to fill).
 */
import path from "node:path";
import { installDatabase } from "@/server/db";
import { openDatabase } from "@/server/db/open";
import { applyMigrations } from "@/server/db/schema-engine";
import { loadLocomo } from "./locomo";
import { evaluateRetrieval, formatReport } from "./memory-eval";

const file = process.argv[2] ?? path.resolve(process.cwd(), "../shared/data/locomo-dev.json");
const opened = await openDatabase(
  process.env.QM_EVAL_DATABASE_URL ? { url: process.env.QM_EVAL_DATABASE_URL } : { dataDir: "memory://" },
);
await applyMigrations(opened.adapterFactory);
installDatabase(opened);
const started = performance.now();
const report = await evaluateRetrieval(loadLocomo(file));
console.log(formatReport(report));
console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s; data: ${path.relative(process.cwd(), file)})`);
await opened.close();
process.exit(0);
