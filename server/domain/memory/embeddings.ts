/**
 * The optional vector leg of memory search. Off unless QM_EMBEDDINGS_URL names a provider:
 * an OpenAI-compatible embeddings endpoint, or `local:hash` (deterministic, offline; for
 * tests and trials). Vectors live in pgvector (PGlite ships it; a PostgreSQL server needs the
 * extension installed) in a table made when the leg is first used, so installations without
 * it carry nothing. Writes never wait for a model: memories are embedded afterwards by the
 * scheduler (`embedPending`), and a memory found before that is found by the other signals.
 */
import { createHash } from "node:crypto";
import { env } from "@/env";
import { getDb } from "../../db";
import type { Tx } from "../../db/types";
import { log } from "../../log";
import { words } from "./text";

export interface EmbeddingsProvider {
  readonly model: string;
  readonly dimensions: number;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

/** Hashed bag of words and character trigrams: similar texts get similar vectors, no model involved. */
export function localHashProvider(dimensions: number): EmbeddingsProvider {
  const bucket = (feature: string) => {
    const h = createHash("sha1").update(feature).digest();
    return { index: h.readUInt32LE(0) % dimensions, sign: (h[4] as number) & 1 ? 1 : -1 };
  };
  return {
    model: `local:hash:${dimensions}`,
    dimensions,
    async embed(texts) {
      return texts.map((text) => {
        const v = new Array<number>(dimensions).fill(0);
        for (const w of words(text)) {
          for (const feature of [
            w,
            ...(w.length > 3 ? [...Array(w.length - 2)].map((_, i) => `#${w.slice(i, i + 3)}`) : []),
          ]) {
            const { index, sign } = bucket(feature);
            v[index] = (v[index] as number) + sign * (feature.startsWith("#") ? 0.5 : 1);
          }
        }
        const norm = Math.hypot(...v) || 1;
        return v.map((x) => x / norm);
      });
    },
  };
}

function openAiProvider(url: string, model: string, dimensions: number, apiKey?: string): EmbeddingsProvider {
  return {
    model,
    dimensions,
    async embed(texts, signal) {
      const response = await fetch(`${url.replace(/\/$/, "")}/embeddings`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        body: JSON.stringify({ model, input: texts, dimensions }),
        signal: signal ?? AbortSignal.timeout(30_000),
      });
      if (!response.ok) throw new Error(`embeddings endpoint answered HTTP ${response.status}`);
      const body = (await response.json()) as { data?: { embedding: number[]; index: number }[] };
      const data = [...(body.data ?? [])].sort((a, b) => a.index - b.index);
      if (data.length !== texts.length || data.some((d) => d.embedding.length !== dimensions))
        throw new Error(
          `embeddings endpoint returned ${data.length} vectors for ${texts.length} texts, or the wrong size`,
        );
      return data.map((d) => d.embedding);
    },
  };
}

let override: EmbeddingsProvider | null | undefined;

/** The configured provider, or null when the vector leg is off. */
export function embeddingsProvider(): EmbeddingsProvider | null {
  if (override !== undefined) return override;
  const url = env.QM_EMBEDDINGS_URL;
  if (!url) return null;
  if (url === "local:hash") return localHashProvider(env.QM_EMBEDDINGS_DIMENSIONS);
  return openAiProvider(url, env.QM_EMBEDDINGS_MODEL, env.QM_EMBEDDINGS_DIMENSIONS, env.QM_EMBEDDINGS_API_KEY);
}

/** Tests switch the leg on (or off) without touching the environment. */
export function useEmbeddingsProvider(provider: EmbeddingsProvider | null | undefined): void {
  override = provider;
  ready = undefined;
}

let ready: Promise<void> | undefined;

/** Creates the extension and the vector table on first use (they need the leg to be on). */
async function ensureVectorTable(provider: EmbeddingsProvider): Promise<void> {
  ready ??= (async () => {
    const db = await getDb();
    await db.$executeRawUnsafe(`CREATE EXTENSION IF NOT EXISTS vector`);
    await db.$executeRawUnsafe(
      `CREATE TABLE IF NOT EXISTS memory_embedding (
         "memoryId" TEXT PRIMARY KEY REFERENCES memory(id) ON DELETE CASCADE,
         model TEXT NOT NULL,
         embedding vector(${provider.dimensions}) NOT NULL
       )`,
    );
  })().catch((error: unknown) => {
    ready = undefined;
    throw error;
  });
  return ready;
}

const literal = (v: number[]) => `[${v.map((x) => (Number.isFinite(x) ? x : 0)).join(",")}]`;

/** Embeds up to `limit` memories that have no vector yet; returns how many it embedded. */
export async function embedPending(limit = 64): Promise<number> {
  const provider = embeddingsProvider();
  if (!provider) return 0;
  await ensureVectorTable(provider);
  const db = await getDb();
  const rows = await db.$queryRawUnsafe<{ id: string; body: string }[]>(
    `SELECT m.id, m.body FROM memory m
      WHERE m."erasedAt" IS NULL AND m.body IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM memory_embedding e WHERE e."memoryId" = m.id AND e.model = $1)
      ORDER BY m.seq LIMIT ${Math.max(1, Math.min(limit, 512))}`,
    provider.model,
  );
  if (!rows.length) return 0;
  const vectors = await provider.embed(rows.map((r) => r.body));
  await db.$executeRawUnsafe(
    `INSERT INTO memory_embedding ("memoryId", model, embedding)
     SELECT x.id, $1, x.v::vector FROM unnest($2::text[], $3::text[]) AS x(id, v)
     ON CONFLICT ("memoryId") DO UPDATE SET model = EXCLUDED.model, embedding = EXCLUDED.embedding`,
    provider.model,
    rows.map((r) => r.id),
    vectors.map(literal),
  );
  return rows.length;
}

/** Removes memories' vectors (erasure), whether or not the leg is on now. */
export async function forgetEmbeddings(tx: Tx, memoryIds: string[]): Promise<void> {
  if (!memoryIds.length) return;
  const [table] = await tx.$queryRawUnsafe<{ exists: boolean }[]>(
    `SELECT to_regclass('memory_embedding') IS NOT NULL AS exists`,
  );
  if (table?.exists)
    await tx.$executeRawUnsafe(`DELETE FROM memory_embedding WHERE "memoryId" = ANY($1::text[])`, memoryIds);
}

interface FilterSql {
  extend(): { arg(value: unknown): string; sql(): string; params: unknown[] };
}

/** The memories closest to the query by cosine similarity, within the search's filters. */
export async function vectorHits(
  filters: FilterSql,
  query: string,
  limit: number,
): Promise<{ id: string; episodeId: string; occurredAt: Date; similarity: number }[]> {
  const provider = embeddingsProvider();
  if (!provider || !query.trim()) return [];
  try {
    await ensureVectorTable(provider);
    const [vector] = await provider.embed([query]);
    if (!vector) return [];
    const db = await getDb();
    const f = filters.extend();
    const v = f.arg(literal(vector));
    const model = f.arg(provider.model);
    return await db.$queryRawUnsafe(
      `SELECT m.id, m."episodeId", m."occurredAt", (1 - (e.embedding <=> ${v}::vector))::float8 AS similarity
         FROM memory_embedding e JOIN memory m ON m.id = e."memoryId"
        WHERE e.model = ${model} AND ${f.sql()}
        ORDER BY e.embedding <=> ${v}::vector LIMIT ${limit}`,
      ...f.params,
    );
  } catch (error) {
    // The other signals still answer; the vector leg's failure is for the operator's log.
    log.warn({ err: error }, "memory search: the vector leg failed");
    return [];
  }
}
