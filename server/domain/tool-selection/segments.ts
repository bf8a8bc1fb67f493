/**
 * find_tools' index, kept per Source (a segment) rather than per identity: an identity's
 * ranking scores its Sources' segments as one corpus (search-legs.ts), so a publication
 * re-reads and re-indexes that Source's Tools only, an assignment or unassignment re-reads
 * nothing, and identities sharing a Source share its segment. A Source of many Tools keeps
 * answering from its previous segment while the new one is built (results then drop any Tool
 * no longer held), so no call waits seconds for a rebuild after a holdings change.
 */
import { getDb } from "../../db";
import { LIMITS } from "../../limits";
import { log } from "../../log";
import { routed } from "../agent-tools/route-cache";
import { catalogVersionOf, VERSION_SELECT } from "../catalog/version";
import { heldToolsWhere } from "../identities/holdings";
import { combinedStats } from "./bm25";
import { DIVERSITY_POOL, diversify } from "./diversify";
import { type IndexedTool, loadTools } from "./indexes";
import { SearchLegs, scoreRequest } from "./search-legs";
import { weightedTerms } from "./tool-text";

export interface Segment {
  version: string;
  tools: IndexedTool[];
  /** Each Tool's weighted terms, kept so the confusable pairs build from them without re-reading. */
  bags: Map<string, number>[];
  legs: SearchLegs;
}

interface Entry {
  current?: Segment;
  /** `hurry` starts a delayed background build now (for a caller that waits for it anyway). */
  building?: { version: string; promise: Promise<Segment>; hurry?: () => void };
}

/** Tools analysed between two turns of the event loop while a segment is built. */
const ANALYSIS_SLICE = 500;

/** How long a background rebuild waits before its first read. */
const BACKGROUND_BUILD_DELAY_MS = 250;

/** Least recently used first. */
const entries = new Map<string, Entry>();

/** Segments built since the process started (tests and benchmarks read it). */
let builds = 0;

async function buildSegment(sourceId: string, version: string): Promise<Segment> {
  builds++;
  // Held Tools of this Source, whoever holds it: Compatible (a silent host's are not held at all).
  const tools = await loadTools({ sourceId, compatibility: "compatible" });
  // Words are split and stemmed a slice at a time, so calls being answered meanwhile are not held up.
  const bags: Map<string, number>[] = [];
  for (let i = 0; i < tools.length; i += ANALYSIS_SLICE) {
    if (i) await new Promise((resolve) => setImmediate(resolve));
    for (const tool of tools.slice(i, i + ANALYSIS_SLICE)) bags.push(weightedTerms(tool));
  }
  const legs = new SearchLegs(
    bags,
    tools.map((t) => t.sourceName),
  );
  return { version, tools, bags, legs };
}

type VersionedSource = { id: string; name: string; catalogVersion: number; hostSilentSince: Date | null };

function segmentOf(source: VersionedSource) {
  const version = catalogVersionOf([source]);
  let entry = entries.get(source.id);
  if (entry) entries.delete(source.id);
  entry ??= {};
  entries.set(source.id, entry);
  while (entries.size > LIMITS.TOOL_SEARCH_SEGMENTS.value) entries.delete(entries.keys().next().value as string);
  const held = entry;
  if (held.current?.version === version) return { segment: Promise.resolve(held.current), stale: false };
  const previous = held.current;
  // A large Source's rebuild takes long enough to be felt: its previous segment answers meanwhile.
  const answersStale = Boolean(previous && previous.tools.length >= LIMITS.TOOL_SEARCH_STALE_SEGMENT_TOOLS.value);
  if (held.building?.version !== version) {
    // In the background, its reads start after the call that asked has sent its own: on the
    // embedded database queries run one at a time, and that call should not wait behind them.
    let hurry: (() => void) | undefined;
    const promise = answersStale
      ? new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, BACKGROUND_BUILD_DELAY_MS);
          hurry = () => {
            clearTimeout(timer);
            resolve();
          };
        }).then(() => buildSegment(source.id, version))
      : buildSegment(source.id, version);
    held.building = { version, promise, hurry };
    promise.then(
      (segment) => {
        if (held.building?.promise === promise) held.building = undefined;
        held.current = segment;
      },
      (error) => {
        if (held.building?.promise === promise) held.building = undefined;
        log.warn({ err: error, sourceId: source.id }, "could not index a Source's Tools for find_tools");
      },
    );
  }
  if (previous && answersStale) return { segment: Promise.resolve(previous), stale: true };
  return { segment: (held.building as { promise: Promise<Segment> }).promise, stale: false };
}

/** A Source's segment as of its current version (waiting for a rebuild rather than answering stale). */
export async function currentSegment(source: VersionedSource): Promise<Segment> {
  const looked = segmentOf(source);
  if (!looked.stale) return looked.segment;
  const version = catalogVersionOf([source]);
  const building = entries.get(source.id)?.building;
  if (building?.version !== version) return looked.segment;
  building.hurry?.();
  return building.promise;
}

/**
 * Builds the segment of every Source some identity holds, one Source at a time, so the first
 * find_tools on a fresh instance answers from memory instead of reading and analysing every
 * held Tool (seconds at 15,000 Tools on a busy machine). Run once an instance serves; a search
 * arriving meanwhile shares the build in flight. Returns how many Sources were indexed.
 */
export async function warmSearchSegments(): Promise<number> {
  const db = await getDb();
  const sources = await db.source.findMany({
    where: { hostSilentSince: null, assignments: { some: {} } },
    select: VERSION_SELECT,
    // Most recently published first: what an LRU of TOOL_SEARCH_SEGMENTS should keep.
    orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
    take: LIMITS.TOOL_SEARCH_SEGMENTS.value,
  });
  let warmed = 0;
  for (const source of sources.reverse()) {
    try {
      await currentSegment(source);
      warmed++;
    } catch (error) {
      log.warn({ err: error, sourceId: source.id }, "could not warm a Source's find_tools index");
    }
  }
  return warmed;
}

export interface Found {
  tool: IndexedTool;
  score: number;
}

interface Scored extends Found {
  bag: Map<string, number>;
}

/**
 * The held Tools best matching a request, best first (ties by name), those scoring at least
 * `cutoff` of the best counted in `total`; a Tool named exactly what was asked comes first.
 */
export async function searchHeldTools(
  identityId: string,
  query: string,
  limit: number,
  cutoff: number,
): Promise<{ total: number; tools: Found[] }> {
  const db = await getDb();
  // Which Sources (and their versions) the identity holds, kept as a Tool Call's route is
  // (decision 0016): a change on this instance is seen at once, another instance's within
  // CALL_ROUTE_CACHE_MS. Under load this query was most of a warm search.
  const assignments = await routed(`find-tools-sources\0${identityId}`, () =>
    db.sourceAssignment.findMany({
      where: { identityId, source: { hostSilentSince: null } },
      select: { source: { select: VERSION_SELECT } },
    }),
  );
  const looked = assignments.map((a) => segmentOf(a.source));
  const segments = await Promise.all(looked.map((l) => l.segment));
  const scores = scoreRequest(
    segments.map((s) => s.legs),
    query,
  );
  const asked = query.trim();
  let best = 0;
  let exact: Found | undefined;
  segments.forEach((segment, s) => {
    const own = scores[s] as Float64Array;
    for (let i = 0; i < own.length; i++) {
      const score = own[i] as number;
      if (score > best) best = score;
      if (score > 0 && !exact && (segment.tools[i] as IndexedTool).name === asked)
        exact = { tool: segment.tools[i] as IndexedTool, score };
    }
  });
  // Best first, then by name; the best `pool` kept while scanning (an identity may hold
  // 15,000), then near-copies of a better match moved down (diversify.ts) before the cutoff.
  const pool = Math.max(limit, DIVERSITY_POOL);
  const before = (a: Scored, b: Scored) =>
    Math.abs(b.score - a.score) > 1e-12 ? a.score > b.score : a.tool.name < b.tool.name;
  const top: Scored[] = [];
  let total = exact ? 1 : 0;
  segments.forEach((segment, s) => {
    const own = scores[s] as Float64Array;
    for (let i = 0; i < own.length; i++) {
      const score = own[i] as number;
      const tool = segment.tools[i] as IndexedTool;
      if (score <= 0 || tool === exact?.tool) continue;
      if (score >= best * cutoff) total++;
      const found = { tool, score, bag: segment.bags[i] as Map<string, number> };
      if (top.length === pool && !before(found, top[pool - 1] as Scored)) continue;
      let at = top.length;
      while (at > 0 && before(found, top[at - 1] as Scored)) at--;
      top.splice(at, 0, found);
      if (top.length > pool) top.pop();
    }
  });
  const stats = combinedStats(segments.map((s) => s.legs.words));
  const counts = (f: Scored) => f.score >= best * cutoff;
  const kept = diversify(top, (f) => f.bag, stats.df, stats.documents, limit, counts)
    .filter(counts)
    .map(({ tool, score }) => ({ tool, score }));
  let tools = exact ? [exact, ...kept].slice(0, limit) : kept.slice(0, limit);
  if (looked.some((l) => l.stale)) {
    // A segment being rebuilt may still name a Tool its Source has since dropped.
    const still = await db.tool.findMany({
      where: { AND: [heldToolsWhere(identityId), { id: { in: tools.map((t) => t.tool.id) } }] },
      select: { id: true },
    });
    const held = new Set(still.map((t) => t.id));
    tools = tools.filter((t) => held.has(t.tool.id));
  }
  return { total, tools };
}

/** Forget every segment (tests and benchmarks that compare a cold build with a warm one). */
export function dropSearchSegments(): void {
  entries.clear();
}

/** How many segments this process has built (tests and benchmarks: did a call build one?). */
export function segmentBuildCount(): number {
  return builds;
}
