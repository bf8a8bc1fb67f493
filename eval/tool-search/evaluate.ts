/**
 * Tool search on labelled data, end to end: the Tools are served by a real MCP server on
 * loopback, added as one MCP Connection and checked, assigned to one Agent Identity, and
 * every question is sent over HTTP to /mcp `find_tools` with that identity's token, as an
 * agent would. Scores recall@1/@5/@10 and MRR (a question is found at k when any of its
 * gold Tools is among the first k), find_tools latency, the identity's tools/list size,
 * and the same recall figures for plain BM25 on the same questions. Used by
 * `npm run eval:tool-search` (the BFCL development half) and by the test holding the
 * floors on our own small fixture.
 */
import { randomUUID } from "node:crypto";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import type { Exposure } from "@/server/domain/agent-tools/exposure";
import { planListing } from "@/server/domain/agent-tools/exposure";
import { checkNow } from "@/server/domain/catalog/checks";
import { assignSource, createIdentity, updateIdentity } from "@/server/domain/identities/identities";
import { createToken } from "@/server/domain/identities/tokens";
import { createMcpConnection } from "@/server/domain/sources/sources";
import { LIMITS } from "@/server/limits";
import { handleMcpOther, handleMcpPost } from "@/server/mcp/handler";
import { startSdkServer } from "@/tests/helpers/mcp-servers";
import { serveHandler } from "@/tests/helpers/web-handler";
import { Bm25 } from "./bm25";

export interface SearchTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface SearchQuestion {
  id: string;
  question: string;
  /** Every name under which a right answer is served. */
  gold: string[];
}

export interface ListingSize {
  tools: number;
  bytes: number;
  estimatedTokens: number;
  /** What the exposure does at this size: every held Tool, or a selection. */
  mode: "all" | "selection";
}

export interface RecallScores {
  recallAt1: number;
  recallAt5: number;
  recallAt10: number;
  mrr: number;
}

export interface ToolSearchReport extends RecallScores {
  questions: number;
  tools: number;
  findToolsMs: { p50: number; p95: number };
  /** The identity's whole tools/list (built-ins and catalog Tools, every page) under each exposure. */
  listings: Record<Exposure, ListingSize>;
  bm25: RecallScores;
  /** Questions find_tools missed at 10, for reading. */
  missed: { id: string; question: string; gold: string[]; got: string[] }[];
}

/** Every exposure an identity may have; the listing is measured under each. */
const EXPOSURES: readonly Exposure[] = ["all", "selection", "auto"];

/** Searches are at most 10 deep, as the data README scores them. */
const LIMIT = 10;

/** Long requests are cut at a word boundary to what find_tools accepts, for both rankers. */
export function cutQuestion(text: string, max = LIMITS.FIND_TOOLS_QUERY_CHARS.value): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  const cut = trimmed.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return (space > max / 2 ? cut.slice(0, space) : cut).trim();
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function scores(ranks: (number | null)[]): RecallScores {
  const n = ranks.length || 1;
  const within = (k: number) => ranks.filter((r) => r !== null && r <= k).length / n;
  return {
    recallAt1: within(1),
    recallAt5: within(5),
    recallAt10: within(10),
    mrr: ranks.reduce<number>((sum, r) => sum + (r ? 1 / r : 0), 0) / n,
  };
}

const rankOf = (names: string[], gold: string[]) => {
  const at = names.findIndex((n) => gold.includes(n));
  return at < 0 ? null : at + 1;
};

/** Rough tokens of JSON a model is sent: four bytes a token. */
export const estimateTokens = (bytes: number) => Math.round(bytes / 4);

export async function evaluateToolSearch(
  tools: readonly SearchTool[],
  questions: readonly SearchQuestion[],
): Promise<ToolSearchReport> {
  const closers: (() => Promise<unknown>)[] = [];
  try {
    const served = await startSdkServer({ catalog: () => tools.map((t) => ({ ...t })), pageSize: 500 });
    closers.push(served.close);
    const run = randomUUID().slice(0, 8);
    const source = await createMcpConnection(SYSTEM, { name: `tool search ${run}`, url: served.url });
    const check = await checkNow(SYSTEM, { id: source.id });
    if (check.status !== "succeeded") throw new Error(`the catalog check of the eval's Source ${check.status}`);
    // The data names gold Tools as served; a model sees some under another name (two that
    // differ only in case, say, are made unique with the Source's name): score by that one.
    const servedAs = new Map(
      (
        await (
          await getDb()
        ).tool.findMany({
          where: { sourceId: source.id },
          select: { nativeName: true, modelFacingName: true },
        })
      ).map((t) => [t.nativeName, t.modelFacingName ?? t.nativeName]),
    );
    const modelGold = (gold: string[]) => gold.map((g) => servedAs.get(g) ?? g);
    const identity = await createIdentity(SYSTEM, { name: `tool-search-${run}` });
    await assignSource(SYSTEM, { identityId: identity.id, sourceId: source.id });
    const { value: token } = await createToken(SYSTEM, { identityId: identity.id, name: "eval" });

    const mcp = await serveHandler({ POST: handleMcpPost, GET: handleMcpOther, DELETE: handleMcpOther }, "/mcp");
    closers.push(mcp.close);
    const client = new Client({ name: "tool-search-eval", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(mcp.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    closers.push(() => client.close());

    const listings = {} as Record<Exposure, ListingSize>;
    for (const exposure of EXPOSURES) {
      await updateIdentity(SYSTEM, { id: identity.id, exposure });
      let listed = 0;
      let bytes = 0;
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {});
        listed += page.tools.length;
        bytes += Buffer.byteLength(JSON.stringify(page.tools));
        cursor = page.nextCursor;
      } while (cursor);
      const { mode } = await planListing(identity.id);
      listings[exposure] = { tools: listed, bytes, estimatedTokens: estimateTokens(bytes), mode };
    }

    const bm25 = new Bm25(tools);
    const ours: (number | null)[] = [];
    const baseline: (number | null)[] = [];
    const latencies: number[] = [];
    const missed: ToolSearchReport["missed"] = [];
    for (const q of questions) {
      const query = cutQuestion(q.question);
      const started = performance.now();
      const result = await client.callTool({ name: "find_tools", arguments: { query, limit: LIMIT } });
      latencies.push(performance.now() - started);
      if (result.isError) throw new Error(`find_tools refused question ${q.id}: ${JSON.stringify(result.content)}`);
      const names = (result.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);
      const rank = rankOf(names, modelGold(q.gold));
      ours.push(rank);
      if (rank === null) missed.push({ id: q.id, question: query, gold: q.gold, got: names.slice(0, 3) });
      baseline.push(rankOf(bm25.rank(query, LIMIT), q.gold));
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      questions: questions.length,
      tools: tools.length,
      ...scores(ours),
      findToolsMs: { p50: percentile(sorted, 50), p95: percentile(sorted, 95) },
      listings,
      bm25: scores(baseline),
      missed,
    };
  } finally {
    for (const close of closers.reverse()) await close().catch(() => {});
  }
}

const f3 = (x: number) => x.toFixed(3);

export function formatToolSearchReport(report: ToolSearchReport): string {
  const row = (name: string, s: RecallScores) =>
    `| ${name} | ${f3(s.recallAt1)} | ${f3(s.recallAt5)} | ${f3(s.recallAt10)} | ${f3(s.mrr)} |`;
  return [
    `${report.questions} questions over ${report.tools} Tools (one MCP Connection, one Agent Identity, /mcp find_tools, limit ${LIMIT})`,
    "",
    "| ranker | recall@1 | recall@5 | recall@10 | MRR |",
    "| --- | --- | --- | --- | --- |",
    row("find_tools", report),
    row("plain BM25", report.bm25),
    "",
    `find_tools latency: p50 ${report.findToolsMs.p50.toFixed(1)} ms, p95 ${report.findToolsMs.p95.toFixed(1)} ms`,
    "",
    "| exposure | lists | Tools | bytes | ~tokens |",
    "| --- | --- | --- | --- | --- |",
    ...EXPOSURES.map((e) => {
      const l = report.listings[e];
      return `| ${e} | ${l.mode === "all" ? "every held Tool" : "a selection"} | ${l.tools} | ${l.bytes.toLocaleString("en")} | ${l.estimatedTokens.toLocaleString("en")} |`;
    }),
  ].join("\n");
}
