/**
 * Memory benchmarks (npm run bench runs them on both databases):
 *   - search latency p50/p95 over 100,000 memories in one scope (goal p95 < 50 ms on
 *     PostgreSQL, < 150 ms on the embedded database);
 *   - the write rate of memories.create (the domain function behind it), reported;
 *   - one consolidator pass over those 100,000 memories (goal < 60 s).
 * The corpus is generated: words drawn from a Zipf distribution over a fixed vocabulary (so
 * common words are in many memories, as in real text), with a few percent of exact and
 * near-duplicates for the consolidator to find. It is loaded through the scope import.
 */
import { randomUUID } from "node:crypto";
import { SYSTEM } from "@/server/actor";
import { consolidateScope } from "@/server/domain/memory/consolidator";
import { createMemory } from "@/server/domain/memory/memories";
import { EXPORT_FORMAT, importScope } from "@/server/domain/memory/portable";
import { searchMemories } from "@/server/domain/memory/search";
import { contentHash, titleOf } from "@/server/domain/memory/text";

export interface BenchRow {
  name: string;
  value: string;
  goal: string;
  verdict: string;
}

// A deterministic generator, so every run searches the same corpus.
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 0x100000000;
  };
}

const SYLLABLES = "ka lo mi ra tu ne so vi da pe zo ri ma lu ke ta no si fa gu be ho ja wi".split(" ");
const STOP = "the a to of and in is it for on that with we as at be this by from or are was".split(" ");

function vocabulary(size: number, random: () => number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const n = 2 + Math.floor(random() * 3);
    words.add(Array.from({ length: n }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(""));
  }
  return [...words];
}

/** Draws word ranks with probability ∝ 1/rank (Zipf, s = 1). */
function zipf(size: number, random: () => number) {
  const cumulative: number[] = [];
  let sum = 0;
  for (let r = 1; r <= size; r++) {
    sum += 1 / r;
    cumulative.push(sum);
  }
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export function memoryCorpus(count: number, seed = 7) {
  const random = rng(seed);
  const words = vocabulary(20_000, random);
  const pick = zipf(words.length, random);
  const sentence = (length: number) =>
    Array.from({ length }, () => (random() < 0.35 ? STOP[Math.floor(random() * STOP.length)] : words[pick()])).join(
      " ",
    );
  const bodies: string[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (roll < 0.01 && bodies.length) bodies.push(bodies[Math.floor(random() * bodies.length)] as string);
    else if (roll < 0.03 && bodies.length)
      bodies.push(`${bodies[Math.floor(random() * bodies.length)]} ${sentence(2)}`); // adds to an earlier one
    else bodies.push(`${sentence(4 + Math.floor(random() * 6))}.\n${sentence(8 + Math.floor(random() * 40))}.`);
  }
  const query = () => sentence(3 + Math.floor(random() * 5));
  return { bodies, query };
}

/** The corpus as a scope export, so it loads through the import path in bulk. */
function corpusJsonl(scopeId: string, name: string, bodies: string[]): string {
  const start = Date.UTC(2025, 0, 1);
  const lines = [
    JSON.stringify({
      type: "scope",
      format: EXPORT_FORMAT,
      id: scopeId,
      name,
      description: "",
      consolidateEverySeconds: 86_400,
      createdAt: new Date(start).toISOString(),
    }),
  ];
  bodies.forEach((body, i) => {
    const at = new Date(start + i * 60_000).toISOString();
    lines.push(
      JSON.stringify({
        type: "memory",
        id: randomUUID(),
        kind: "note",
        body,
        title: titleOf(body),
        bodyBytes: Buffer.byteLength(body),
        contentHash: contentHash(body),
        tags: [],
        authorType: "system",
        authorId: null,
        authorLabel: "bench",
        occurredAt: at,
        recordedAt: at,
        episodeId: `episode-${Math.floor(i / 20)}`,
        supersededById: null,
        supersededAt: null,
        discardedAt: null,
        mergedFrom: [],
        erasedAt: null,
        erasedBy: null,
        erasureReason: null,
      }),
    );
  });
  return `${lines.join("\n")}\n`;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? Number.NaN;

export async function memorySuite(
  kind: "embedded" | "postgresql",
  count = Number(process.env.BENCH_MEMORIES ?? 100_000),
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const { bodies, query } = memoryCorpus(count);
  const scopeId = randomUUID();
  const loadStarted = performance.now();
  // Imports are capped per file (64 MiB); load in slices.
  for (let i = 0; i < bodies.length; i += 20_000) {
    const slice = corpusJsonl(scopeId, `bench ${scopeId.slice(0, 8)}`, bodies.slice(i, i + 20_000));
    // Made here, a moment ago, unsigned: nothing from elsewhere to verify.
    await importScope(SYSTEM, { jsonl: slice, acceptUnsigned: true });
  }
  const loadMs = performance.now() - loadStarted;
  rows.push({
    name: `memory: load ${count.toLocaleString("en")} memories (scope import)`,
    value: `${(loadMs / 1000).toFixed(1)} s`,
    goal: "reported",
    verdict: "—",
  });

  for (let i = 0; i < 20; i++) await searchMemories(SYSTEM, { scopeId, query: query() }); // warm caches
  const latencies: number[] = [];
  for (let i = 0; i < 200; i++) {
    const q = query();
    const started = performance.now();
    await searchMemories(SYSTEM, { scopeId, query: q, limit: 10 });
    latencies.push(performance.now() - started);
  }
  const goal = kind === "postgresql" ? 50 : 150;
  const p95 = percentile(latencies, 95);
  rows.push({
    name: `memory: search over ${count.toLocaleString("en")} memories, p50 / p95`,
    value: `${median(latencies).toFixed(1)} / ${p95.toFixed(1)} ms`,
    goal: `p95 < ${goal} ms`,
    verdict: p95 < goal ? "met" : "missed",
  });

  const writes = 500;
  const writeStarted = performance.now();
  for (let i = 0; i < writes; i++) await createMemory(SYSTEM, { scopeId, body: `${query()}. ${query()}.` });
  const perSecond = writes / ((performance.now() - writeStarted) / 1000);
  rows.push({
    name: "memory: memories.create, sequential",
    value: `${perSecond.toFixed(0)} / s`,
    goal: "reported",
    verdict: "—",
  });

  const passStarted = performance.now();
  const report = await consolidateScope(scopeId);
  const passS = (performance.now() - passStarted) / 1000;
  rows.push({
    name: `memory: consolidator pass over ${count.toLocaleString("en")} memories`,
    value: `${passS.toFixed(1)} s (${report.filed} proposals)`,
    goal: "< 60 s",
    verdict: passS < 60 ? "met" : "missed",
  });
  return rows;
}
