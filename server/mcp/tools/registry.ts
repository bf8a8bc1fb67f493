/**
 * Every built-in /mcp tool, in the order tools/list offers them (ahead of the catalog).
 * tools/list, tools/call, docs/mcp.md (npm run docs:mcp) and the tool-selection eval read
 * this list; the names a catalog Tool may never take (domain/agent-tools/built-ins.ts) are
 * kept equal to it by registry.test.ts.
 */
import { callTool } from "./call-tool";
import type { BuiltInTool } from "./define";
import { findTools } from "./find-tools";
import { briefing, configureScope, debrief, handoff } from "./memory-context";
import { reviewProposals, threads } from "./memory-curation";
import { getFacts, getMemoriesTool, search } from "./memory-read";
import { remember } from "./memory-write";

export const builtInTools: readonly BuiltInTool[] = [
  briefing,
  search,
  getMemoriesTool,
  remember,
  debrief,
  handoff,
  configureScope,
  getFacts,
  threads,
  reviewProposals,
  findTools,
  callTool,
];

const byName = new Map(builtInTools.map((t) => [t.name, t]));

export function builtInTool(name: string): BuiltInTool | undefined {
  return byName.get(name);
}
