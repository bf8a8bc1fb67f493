/**
 * npm run eval:tool-search [-- tools.json questions.json]: find_tools' ranking on the BFCL
 * development half (../shared/data/bfcl-tools.json and bfcl-tools-dev.json, read here at
 * run time and never copied into the repository; Apache-2.0, Berkeley Function-Calling
 * Leaderboard) or on our own fixture (eval/fixtures/tool-search.json, both in one file),
 * on a fresh embedded database (or QM_EVAL_DATABASE_URL, a PostgreSQL database to fill).
 */
import path from "node:path";
import { installDatabase } from "@/server/db";
import { openDatabase } from "@/server/db/open";
import { applyMigrations } from "@/server/db/schema-engine";
import { evaluateToolSearch, formatToolSearchReport } from "./tool-search/evaluate";
import { loadBfcl, loadToolSearchFixture } from "./tool-search/load";

const data = path.resolve(process.cwd(), "../shared/data");
const [toolsFile, questionsFile] = process.argv.slice(2);
const set =
  toolsFile && !questionsFile
    ? loadToolSearchFixture(toolsFile)
    : loadBfcl(
        toolsFile ?? path.join(data, "bfcl-tools.json"),
        questionsFile ?? path.join(data, "bfcl-tools-dev.json"),
      );
const opened = await openDatabase(
  process.env.QM_EVAL_DATABASE_URL ? { url: process.env.QM_EVAL_DATABASE_URL } : { dataDir: "memory://" },
);
await applyMigrations(opened.adapterFactory);
installDatabase(opened);
const started = performance.now();
const report = await evaluateToolSearch(set.tools, set.questions);
console.log(formatToolSearchReport(report));
if (process.env.QM_EVAL_MISSED)
  for (const m of report.missed)
    console.log(`  missed ${m.id}: ${m.gold.join("|")} ← got ${m.got.join(", ")}: "${m.question.slice(0, 120)}"`);
console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
await opened.close();
process.exit(0);
