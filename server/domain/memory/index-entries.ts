/**
 * A memory's search entries, written with it: the full-text vector (heading weighted A,
 * tags B, the rest D; every word also under its lexicon base form) and the MinHash band
 * keys near-duplicate detection groups by. Erasure clears both with the body.
 */
import type { Tx } from "../../db/types";
import { expandForSearch } from "./lexicon";
import { lshBands, splitHeading } from "./text";

const VECTOR = `setweight(to_tsvector('english', x.heading), 'A') || setweight(to_tsvector('english', x.tags), 'B') || to_tsvector('english', x.rest)`;

function entry(m: { id: string; body: string; tags: string[] }) {
  const { heading, rest } = splitHeading(m.body);
  return {
    id: m.id,
    heading: expandForSearch(heading),
    tags: expandForSearch(m.tags.join(" ")),
    rest: expandForSearch(rest),
    bands: `{${lshBands(m.body).join(",")}}`,
  };
}

export async function indexMemory(tx: Tx, id: string, body: string, tags: string[]): Promise<void> {
  await indexMemories(tx, [{ id, body, tags }]);
}

/** Writes the entries of many memories in one statement (imports); `onlyMissing` skips indexed ones. */
export async function indexMemories(
  tx: Tx,
  memories: { id: string; body: string; tags: string[] }[],
  onlyMissing = false,
): Promise<void> {
  if (!memories.length) return;
  // The scope's lexeme counts move with the entries written, in the same statement.
  await tx.$executeRawUnsafe(
    `WITH written AS (
       UPDATE memory m SET "searchVector" = ${VECTOR}, "lshBands" = x.bands::int[]
         FROM json_to_recordset($1::json) AS x(id text, heading text, tags text, rest text, bands text)
        WHERE m.id = x.id${onlyMissing ? ` AND m."searchVector" IS NULL` : ""}
        RETURNING m."scopeId", m."searchVector"
     )
     INSERT INTO memory_lexeme ("scopeId", lexeme, df)
     SELECT w."scopeId", l.lexeme, count(*)::int
       FROM written w, unnest(tsvector_to_array(w."searchVector")) AS l(lexeme)
      GROUP BY w."scopeId", l.lexeme
      ORDER BY 1, 2
     ON CONFLICT ("scopeId", lexeme) DO UPDATE SET df = memory_lexeme.df + EXCLUDED.df`,
    JSON.stringify(memories.map(entry)),
  );
}
