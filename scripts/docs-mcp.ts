/** npm run docs:mcp — rewrites the built-in tools section of docs/mcp.md from the registry. */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { foldTables, withGeneratedSection } from "@/server/mcp/tools/docs";

const file = path.join(import.meta.dirname, "../docs/mcp.md");
const before = readFileSync(file, "utf8");
const after = withGeneratedSection(before);
if (foldTables(after) === foldTables(before)) console.log("docs/mcp.md is up to date.");
else {
  writeFileSync(file, after);
  // The formatter aligns the tables as it does in every other document.
  execFileSync("npx", ["biome", "format", "--write", file], { stdio: "ignore" });
  console.log("docs/mcp.md: built-in tools section rewritten.");
}
process.exit(0);
