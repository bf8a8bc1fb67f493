/** Where erased words are still to be found: every text-like column of every table. */
import { getDb } from "@/server/db";

/** Every text-like column of every table in which `needle` occurs, including search vectors. */
export async function tracesOf(needle: string): Promise<string[]> {
  const db = await getDb();
  const columns = await db.$queryRawUnsafe<{ table_name: string; column_name: string; data_type: string }[]>(
    `SELECT table_name, column_name, data_type FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type IN ('text', 'jsonb', 'json', 'tsvector', 'ARRAY', 'character varying')`,
  );
  const found: string[] = [];
  for (const c of columns) {
    const [row] = await db.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT count(*) AS n FROM "${c.table_name}" WHERE "${c.column_name}"::text ILIKE '%' || $1 || '%'`,
      needle,
    );
    if (Number(row?.n) > 0) found.push(`${c.table_name}.${c.column_name}`);
  }
  return found;
}
