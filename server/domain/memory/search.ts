/**
 * Memory search: one filtered, ranked query within one scope. Signals, each reported per hit:
 * - fulltext: PostgreSQL full-text search, any query word may match; each word weighs by how
 *   rare it is in the scope (IDF), headings more than the rest, and a hit covering more of the
 *   query ranks higher;
 * - trigram: pg_trgm word similarity of the query to the body (spelling variants, typos);
 *   memories no word matched are found by it alone;
 * - vector: cosine similarity of embeddings, when an embeddings provider is configured;
 * - context: memories written next to a strong hit in the same episode (one author, close in
 *   time) borrow part of its score — an answer often sits beside the words that find it — but
 *   one that matched nothing itself ranks after every memory that did (byRank);
 * - time: a date the query mentions favours memories that happened then.
 * See docs/decisions/0009-memory.md for the measurements behind the weights.
 */
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { decodeOffsetCursor, nextOffsetCursor } from "../paging";
import { parseInput } from "../validation";
import { requireScope, visibleMemorySql } from "./access";
import { vectorHits } from "./embeddings";
import { type TListMemoriesInput, type TSearchInput, ZListMemoriesInput, ZSearchInput } from "./schemas";
import { QUESTION_STEMS, searchText, type TimeRange, tsqueryLiteral } from "./search-query";
import { truncate } from "./text";
import type { MemoryState } from "./threads";

/** Weights of the fused score; measured on LoCoMo (npm run eval:memory), see decision 0009. */
export const RANKING = {
  /** ts_rank weights for D (body), C, B (tags), A (heading) positions (PostgreSQL caps them at 1). */
  positionWeights: [0.1, 0.1, 0.15, 0.2],
  /** Brings ts_rank (scaled by the body weight) to about one per matched rare word. */
  fulltextScale: 10,
  /** Lift for a memory whose heading ("Name: …", "# Title") holds a query word. */
  heading: 0.5,
  trigram: 1.0,
  vector: 1.0,
  /** Share of a neighbour's score a memory one / two steps away in its episode receives. */
  contextNear: 0.6,
  contextFar: 0.3,
  /** How much an episode with several strong hits lifts its memories (0 = none). */
  episode: 0.5,
  /** Factor for memories that happened within a date the query names (or two weeks after). */
  time: 1.6,
  /** Lexical candidates ranked further (context, time) before the page is cut. */
  candidates: 300,
  /** How many of the best of them get a trigram similarity (it reads the body). */
  trigramScored: 300,
  /** A word held by at most this many memories (or this share of the scope) generates candidates. */
  selectiveDf: 1000,
  selectiveShare: 0.01,
  /** Matches read at most, whatever the words: a bound on one search's work. */
  maxMatches: 10_000,
  /** Strongest candidates whose episode neighbours are looked up. */
  contextSeeds: 60,
} as const;

export interface SearchHit {
  id: string;
  score: number;
  /** Each signal's part of the score; they add up to it. */
  signals: { fulltext: number; trigram: number; vector: number; context: number; time: number };
  kind: string;
  title: string;
  body: string;
  truncated: boolean;
  bodyBytes: number;
  tags: string[];
  occurredAt: Date;
  recordedAt: Date;
  authorLabel: string;
  state: MemoryState;
  supersededById: string | null;
  /** Write-time screening found instructions aimed at an agent, and no curator has cleared them. */
  flagged: boolean;
  /** The rules it tripped ("rule: detail"); kept after a curator clears the flag. */
  flagReasons: string[];
  /** Held for a curator's admission: only its writer and curators find it (access.ts). */
  quarantined: boolean;
}

export interface SearchResult {
  scope: { id: string; name: string };
  query: string;
  hits: SearchHit[];
  /**
   * Hits there are to page through: every memory matching the filters for an empty query;
   * for a query, the ranked candidates (the best of the matches, their episode neighbours
   * and spelling matches), which may be fewer than `matched`.
   */
  total: number;
  /** Memories that matched the query's words or spelling (or the filters, for an empty query). */
  matched: number;
  /** An offset cursor for the hits after these, or null after the last. */
  nextCursor: string | null;
  /** The date the query named, used as a signal. */
  time: TimeRange | null;
}

interface Candidate {
  id: string;
  episodeId: string;
  occurredAt: Date;
  fulltext: number;
  trigram: number;
  vector: number;
}

type SearchFilters = Pick<
  ReturnType<typeof ZSearchInput.parse>,
  "scopeId" | "query" | "threadId" | "kinds" | "tags" | "from" | "to" | "includeSuperseded"
> & { flagged?: boolean } & Partial<
    Pick<ReturnType<typeof ZSearchInput.parse>, "writtenVia" | "authorId" | "authorTokenId" | "callId" | "clientName">
  >;

/** Parameters and WHERE of the filters, shared by every statement of one search. */
export class Filters {
  private constructor(
    readonly params: unknown[],
    readonly where: string[],
  ) {}
  static of(scopeId: string, input: SearchFilters): Filters {
    const f = new Filters([], []);
    f.where.push(`m."scopeId" = ${f.arg(scopeId)}`, `m."erasedAt" IS NULL`);
    if (!input.includeSuperseded) f.where.push(`m."supersededById" IS NULL`, `m."discardedAt" IS NULL`);
    if (input.kinds?.length) f.where.push(`m.kind::text = ANY(${f.arg(input.kinds)}::text[])`);
    if (input.tags?.length) f.where.push(`m.tags @> ${f.arg(input.tags)}::text[]`);
    if (input.from) f.where.push(`m."occurredAt" >= ${f.arg(input.from)}`);
    if (input.to) f.where.push(`m."occurredAt" < ${f.arg(input.to)}`);
    if (input.flagged !== undefined) f.where.push(`m.flagged = ${f.arg(input.flagged)}`);
    if (input.writtenVia === "unknown") f.where.push(`m."writtenVia" IS NULL`);
    else if (input.writtenVia) f.where.push(`m."writtenVia" = ${f.arg(input.writtenVia)}`);
    if (input.authorId) f.where.push(`m."authorId" = ${f.arg(input.authorId)}`);
    if (input.authorTokenId) f.where.push(`m."authorTokenId" = ${f.arg(input.authorTokenId)}`);
    if (input.callId) f.where.push(`m."callId" = ${f.arg(input.callId)}`);
    if (input.clientName) f.where.push(`m."clientName" = ${f.arg(input.clientName)}`);
    if (input.threadId)
      f.where.push(
        `EXISTS (SELECT 1 FROM thread_member tm WHERE tm."memoryId" = m.id AND tm."threadId" = ${f.arg(input.threadId)})`,
      );
    return f;
  }
  /** Only the memories the actor may see: others' quarantined writes are left out (access.ts). */
  visibleTo(actor: Actor): Filters {
    const sql = visibleMemorySql(actor, "m", (value) => this.arg(value));
    if (sql) this.where.push(sql);
    return this;
  }
  /** A copy to add a statement's own parameters to. */
  extend(): Filters {
    return new Filters([...this.params], [...this.where]);
  }
  arg(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
  sql(): string {
    return this.where.join(" AND ");
  }
}

// Memories per scope move slowly relative to searches; IDF needs the size, not the exact count.
const scopeSizes = new Map<string, { n: number; at: number }>();
async function scopeSize(scopeId: string): Promise<number> {
  const cached = scopeSizes.get(scopeId);
  if (cached && Date.now() - cached.at < 30_000) return cached.n;
  const db = await getDb();
  const n = await db.memory.count({ where: { scopeId, erasedAt: null } });
  scopeSizes.set(scopeId, { n, at: Date.now() });
  return n;
}

interface Term {
  lexeme: string;
  /** Memories of the scope that hold it (memory_lexeme). */
  df: number;
}

/** The query's words as lexemes, in order, with how many memories of the scope hold each. */
async function queryTerms(text: string, scopeId: string): Promise<Term[]> {
  const db = await getDb();
  const rows = await db.$queryRawUnsafe<{ lexeme: string; pos: number; df: number }[]>(
    `SELECT u.lexeme, u.positions[1] AS pos, coalesce(ml.df, 0) AS df
       FROM unnest(to_tsvector('english', $1)) u
       LEFT JOIN memory_lexeme ml ON ml."scopeId" = $2 AND ml.lexeme = u.lexeme`,
    text,
    scopeId,
  );
  return rows
    .sort((a, b) => a.pos - b.pos)
    .filter((r) => !QUESTION_STEMS.has(r.lexeme) && r.df > 0)
    .slice(0, 24)
    .map((r) => ({ lexeme: r.lexeme, df: r.df }));
}

/**
 * The lexical leg in one statement: candidates from the query's rare words (a word most of
 * the scope holds finds everything and ranks nothing, so it only scores what the rare ones
 * found), scored by IDF-weighted ts_rank, coverage and heading, and the trigram similarity
 * of the best of them to the query.
 */
async function lexicalCandidates(
  filters: Filters,
  terms: Term[],
  scopeId: string,
  query: string,
): Promise<{ rows: Candidate[]; total: number }> {
  if (!terms.length) return { rows: [], total: 0 };
  const db = await getDb();
  const f = filters.extend();
  const n = Math.max(await scopeSize(scopeId), 1, ...terms.map((t) => t.df));
  const args = terms.map((t) => f.arg(tsqueryLiteral(t.lexeme)));
  const idf = terms.map((t) => Math.log(1 + (n - t.df + 0.5) / (t.df + 0.5)));
  const weights = f.arg(RANKING.positionWeights);
  const selectiveDf = Math.max(RANKING.selectiveDf, RANKING.selectiveShare * n);
  const byRarity = terms.map((t, i) => ({ ...t, i })).sort((a, b) => a.df - b.df);
  const selective = byRarity.filter((t) => t.df <= selectiveDf);
  // Only common words: memories holding the two rarest of them together.
  const generator = selective.length
    ? selective.map((t) => `${args[t.i]}::tsquery`).join(" || ")
    : byRarity
        .slice(0, 2)
        .map((t) => `${args[t.i]}::tsquery`)
        .join(" && ");
  // The parameters are parsed into tsqueries once (q), not once per row; the WHERE keeps
  // its own casts so the planner can take the GIN index.
  const parsed = args.map((a, i) => `${a}::tsquery AS t${i}`).join(", ");
  const rank = args.map((_, i) => `${idf[i]} * ts_rank(${weights}::float4[], c.v, q.t${i}, 1)`).join(" + ");
  const matched = args.map((_, i) => `(c.v @@ q.t${i})::int`).join(" + ");
  // The same words restricted to heading positions (weight A).
  const inHeading = f.arg(terms.map((t) => `${tsqueryLiteral(t.lexeme)}:A`).join(" | "));
  const text = f.arg(query);
  const rows = await db.$queryRawUnsafe<
    { id: string; episodeId: string; occurredAt: Date; lex: number; total: bigint; sim: number }[]
  >(
    `WITH q AS MATERIALIZED (SELECT ${parsed}, ${inHeading}::tsquery AS heading),
     c AS MATERIALIZED (
       SELECT m.id, m."episodeId", m."occurredAt", m."searchVector" AS v FROM memory m
        WHERE ${f.sql()} AND m."searchVector" @@ (${generator})
        LIMIT ${RANKING.maxMatches}
     ), r AS (
       SELECT c.id, c."episodeId", c."occurredAt",
              (${rank}) * ${RANKING.fulltextScale} * (${matched})::float8 / ${args.length}
                * (1 + ${RANKING.heading} * (c.v @@ q.heading)::int) AS lex,
              count(*) OVER () AS total
         FROM c, q
        ORDER BY lex DESC, c.id
        LIMIT ${RANKING.candidates}
     )
     SELECT r.*, CASE WHEN row_number() OVER (ORDER BY r.lex DESC, r.id) <= ${RANKING.trigramScored}
                      THEN word_similarity(${text}, left(m.body, 4000))::float8 ELSE 0 END AS sim
       FROM r JOIN memory m ON m.id = r.id`,
    ...f.params,
  );
  return {
    rows: rows.map((r) => ({
      id: r.id,
      episodeId: r.episodeId,
      occurredAt: r.occurredAt,
      fulltext: r.lex,
      trigram: r.sim,
      vector: 0,
    })),
    total: Number(rows[0]?.total ?? 0),
  };
}

/** Word similarity of the query to each candidate's body (its first 4,000 characters). */
async function trigramScores(query: string, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length || !query.trim()) return new Map();
  const db = await getDb();
  const rows = await db.$queryRawUnsafe<{ id: string; sim: number }[]>(
    `SELECT id, word_similarity($1, left(body, 4000))::float8 AS sim FROM memory WHERE id = ANY($2::text[])`,
    query,
    ids,
  );
  return new Map(rows.map((r) => [r.id, r.sim]));
}

/** Memories no query word matched, but whose text is close to the query (misspellings). */
async function trigramOnly(filters: Filters, query: string, limit: number): Promise<Candidate[]> {
  if (!query.trim() || query.length > 200) return [];
  const db = await getDb();
  const f = filters.extend();
  const q = f.arg(query);
  const rows = await db.$queryRawUnsafe<{ id: string; episodeId: string; occurredAt: Date; sim: number }[]>(
    `SELECT m.id, m."episodeId", m."occurredAt", word_similarity(${q}, m.body)::float8 AS sim
       FROM memory m WHERE ${f.sql()} AND ${q} <% m.body
      ORDER BY sim DESC, m.id LIMIT ${limit}`,
    ...f.params,
  );
  return rows.map((r) => ({
    id: r.id,
    episodeId: r.episodeId,
    occurredAt: r.occurredAt,
    fulltext: 0,
    trigram: r.sim,
    vector: 0,
  }));
}

interface Neighbour {
  seed: string;
  id: string;
  episodeId: string;
  occurredAt: Date;
  distance: number;
}

/** The two memories before and after each seed in its episode (within the same filters). */
async function episodeNeighbours(filters: Filters, seeds: string[]): Promise<Neighbour[]> {
  if (!seeds.length) return [];
  const db = await getDb();
  const f = filters.extend();
  const ids = f.arg(seeds);
  const side = (op: "<" | ">", dir: "DESC" | "ASC") =>
    `(SELECT m.id, m."episodeId", m."occurredAt", row_number() OVER (ORDER BY m."occurredAt" ${dir}, m.seq ${dir}) AS distance
        FROM memory m
       WHERE m."episodeId" = t."episodeId" AND (m."occurredAt", m.seq) ${op} (t."occurredAt", t.seq) AND ${f.sql()}
       ORDER BY m."occurredAt" ${dir}, m.seq ${dir} LIMIT 2)`;
  return db.$queryRawUnsafe<Neighbour[]>(
    `SELECT t.id AS seed, n.id, n."episodeId", n."occurredAt", n.distance::int AS distance
       FROM memory t, LATERAL (${side("<", "DESC")} UNION ALL ${side(">", "ASC")}) n
      WHERE t.id = ANY(${ids}::text[])`,
    ...f.params,
  );
}

function inRange(at: Date, time: TimeRange): boolean {
  const t = at.getTime();
  // Memories are often written after the fact ("last week…"): two weeks of slack after.
  return t >= time.from.getTime() - 86_400_000 && t < time.to.getTime() + 14 * 86_400_000;
}

interface Scored {
  id: string;
  score: number;
  signals: SearchHit["signals"];
  /** It matched the query itself (words, spelling or meaning), not only through its episode. */
  own?: boolean;
}

/**
 * Best first, with every memory that matched the query itself ahead of those found only
 * beside a hit: a memory with no word of the query ("ok", written next to the answer) must
 * not outrank one that has them, however strong the episode it borrows from.
 */
export function byRank(a: Scored, b: Scored): number {
  return Number(Boolean(b.own)) - Number(Boolean(a.own)) || b.score - a.score || a.id.localeCompare(b.id);
}

/** Fuses the signals of the candidates and their neighbours into one ranked list. */
function fuse(candidates: Candidate[], neighbours: Neighbour[], time: TimeRange | null): Scored[] {
  const all = new Map<string, Candidate>(candidates.map((c) => [c.id, c]));
  for (const n of neighbours)
    if (!all.has(n.id))
      all.set(n.id, { id: n.id, episodeId: n.episodeId, occurredAt: n.occurredAt, fulltext: 0, trigram: 0, vector: 0 });
  const base = (c: Candidate) => c.fulltext + RANKING.trigram * c.trigram + RANKING.vector * c.vector;

  const near = new Map<string, number>();
  const far = new Map<string, number>();
  for (const n of neighbours) {
    const seed = all.get(n.seed);
    if (!seed) continue;
    const into = n.distance === 1 ? near : far;
    into.set(n.id, Math.max(into.get(n.id) ?? 0, base(seed)));
  }

  // An episode's strength: its three best memories, relative to the strongest episode.
  const byEpisode = new Map<string, number[]>();
  for (const c of candidates) byEpisode.set(c.episodeId, [...(byEpisode.get(c.episodeId) ?? []), base(c)]);
  const strength = new Map(
    [...byEpisode].map(([e, s]) => [
      e,
      s
        .sort((a, b) => b - a)
        .slice(0, 3)
        .reduce((x, y) => x + y, 0),
    ]),
  );
  const strongest = Math.max(0, ...strength.values()) || 1;

  return [...all.values()].map((c) => {
    const context = RANKING.contextNear * (near.get(c.id) ?? 0) + RANKING.contextFar * (far.get(c.id) ?? 0);
    const own = base(c) + context;
    const episode = RANKING.episode * ((strength.get(c.episodeId) ?? 0) / strongest);
    const timed = time && inRange(c.occurredAt, time) ? RANKING.time - 1 : 0;
    // The multiplicative lifts are reported as context (episode) and time shares.
    const score = own * (1 + episode) * (1 + timed);
    const contextShare = context + (base(c) + context) * episode;
    const timeShare = score - own * (1 + episode);
    return {
      id: c.id,
      score,
      own: base(c) > 0,
      signals: {
        fulltext: c.fulltext,
        trigram: RANKING.trigram * c.trigram,
        vector: RANKING.vector * c.vector,
        context: contextShare,
        time: timeShare,
      },
    };
  });
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

export async function searchMemories(actor: Actor, raw: TSearchInput | unknown): Promise<SearchResult> {
  const input = parseInput(ZSearchInput, raw);
  const offset = input.cursor ? decodeOffsetCursor(input.cursor) : input.offset;
  return search(actor, input, { offset, limit: input.limit, fillTo: offset + input.limit, bodyChars: input.bodyChars });
}

/** Characters of each body a console list row shows (one line of it). */
export const LIST_BODY_CHARS = 240;

/**
 * The console's list of a scope's memories: the search's filters and ranking, paged by
 * offset cursor. Spelling matches fill the ranking up to a fixed number of candidates
 * (not up to the page asked for, as a search does), so every block of one list is cut
 * from the same ranking and `total` is the same in each.
 */
export async function listMemories(actor: Actor, raw: TListMemoriesInput | unknown) {
  const input = parseInput(ZListMemoriesInput, raw);
  const offset = decodeOffsetCursor(input.cursor);
  const { hits, ...rest } = await search(actor, input, {
    offset,
    limit: input.limit,
    fillTo: RANKING.candidates,
    bodyChars: LIST_BODY_CHARS,
  });
  return { ...rest, items: hits };
}

interface SearchPage {
  offset: number;
  limit: number;
  /** Spelling-only matches are looked for while the ranking holds fewer candidates than this. */
  fillTo: number;
  bodyChars: number;
}

async function search(actor: Actor, input: SearchFilters, page: SearchPage): Promise<SearchResult> {
  const scope = await requireScope(actor, input.scopeId, "read");
  const filters = Filters.of(scope.id, input).visibleTo(actor);
  const query = input.query.trim();
  const db = await getDb();

  let ranked: Scored[];
  let total: number;
  let matched: number;
  let time: TimeRange | null = null;
  if (!query) {
    const rows = await db.$queryRawUnsafe<{ id: string; total: bigint }[]>(
      `SELECT m.id, count(*) OVER () AS total FROM memory m WHERE ${filters.sql()}
        ORDER BY m."occurredAt" DESC, m.seq DESC OFFSET ${page.offset} LIMIT ${page.limit}`,
      ...filters.params,
    );
    total = Number(rows[0]?.total ?? (page.offset ? await countAll(filters) : 0));
    matched = total;
    ranked = rows.map((r) => ({
      id: r.id,
      score: 0,
      signals: { fulltext: 0, trigram: 0, vector: 0, context: 0, time: 0 },
    }));
  } else {
    const parsed = searchText(query);
    time = parsed.time;
    const terms = await queryTerms(parsed.text, scope.id);
    const [lexical, vectors] = await Promise.all([
      lexicalCandidates(filters, terms, scope.id, query),
      vectorHits(filters, query, RANKING.candidates),
    ]);
    let candidates = lexical.rows;
    matched = lexical.total;
    // An opposite direction means unrelated, not worse than unrelated.
    for (const v of vectors.filter((x) => x.similarity > 0)) {
      const known = candidates.find((c) => c.id === v.id);
      if (known) known.vector = v.similarity;
      else candidates.push({ ...v, fulltext: 0, trigram: 0, vector: v.similarity });
    }
    if (candidates.length < page.fillTo) {
      const extra = await trigramOnly(filters, query, page.fillTo);
      const seen = new Set(candidates.map((c) => c.id));
      const fresh = extra.filter((c) => !seen.has(c.id));
      candidates = [...candidates, ...fresh];
      matched += fresh.length;
    }
    // Lexical and trigram-only candidates came with theirs; the vector leg's finds need one.
    const sims = await trigramScores(
      query,
      candidates.filter((c) => c.vector > 0 && c.fulltext === 0 && c.trigram === 0).map((c) => c.id),
    );
    for (const c of candidates) if (sims.has(c.id)) c.trigram = sims.get(c.id) ?? 0;
    const seeds = [...candidates]
      .sort((a, b) => b.fulltext + b.trigram + b.vector - (a.fulltext + a.trigram + a.vector))
      .slice(0, RANKING.contextSeeds)
      .map((c) => c.id);
    const neighbours = await episodeNeighbours(filters, seeds);
    const all = fuse(candidates, neighbours, time).sort(byRank);
    total = all.length;
    ranked = all.slice(page.offset, page.offset + page.limit);
  }

  const rows = ranked.length
    ? await db.memory.findMany({
        where: { id: { in: ranked.map((r) => r.id) } },
        select: {
          id: true,
          kind: true,
          title: true,
          body: true,
          bodyBytes: true,
          tags: true,
          occurredAt: true,
          recordedAt: true,
          authorLabel: true,
          supersededById: true,
          discardedAt: true,
          erasedAt: true,
          flagged: true,
          flagReasons: true,
          quarantined: true,
        },
      })
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const hits = ranked.flatMap((r): SearchHit[] => {
    const m = byId.get(r.id);
    if (!m) return [];
    const { text, truncated } = truncate(m.body ?? "", page.bodyChars);
    return [
      {
        id: m.id,
        score: round(r.score),
        signals: {
          fulltext: round(r.signals.fulltext),
          trigram: round(r.signals.trigram),
          vector: round(r.signals.vector),
          context: round(r.signals.context),
          time: round(r.signals.time),
        },
        kind: m.kind,
        title: m.title,
        body: text,
        truncated,
        bodyBytes: m.bodyBytes,
        tags: m.tags,
        occurredAt: m.occurredAt,
        recordedAt: m.recordedAt,
        authorLabel: m.authorLabel,
        state: m.erasedAt ? "erased" : m.supersededById ? "superseded" : m.discardedAt ? "discarded" : "current",
        supersededById: m.supersededById,
        flagged: m.flagged,
        flagReasons: m.flagReasons,
        quarantined: m.quarantined,
      },
    ];
  });
  return { scope, query, hits, total, matched, nextCursor: nextOffsetCursor(page.offset, ranked.length, total), time };
}

async function countAll(filters: Filters): Promise<number> {
  const db = await getDb();
  const [row] = await db.$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT count(*) AS n FROM memory m WHERE ${filters.sql()}`,
    ...filters.params,
  );
  return Number(row?.n ?? 0);
}
