/**
 * Bulk writes as one statement with one JSON parameter (`json_to_recordset`): Prisma's
 * createMany binds every cell as its own parameter, which for a 4,096-Tool catalog on the
 * embedded database was ~30× slower than this. Table and column names come from code,
 * never from input.
 */
import type { Tx } from "./types";

export interface BulkColumn {
  name: string;
  /** SQL type of the recordset field (json has only text/number/boolean) … */
  type: "text" | "integer" | "boolean" | "timestamp(3)" | "text[]";
  /** … and an optional cast into the column's own type (enums). */
  cast?: string;
}

const recordsetFields = (columns: BulkColumn[]) =>
  columns.map((c) => `"${c.name}" ${c.type === "timestamp(3)" ? "text" : c.type}`).join(", ");

function recordsetValue(c: BulkColumn): string {
  const value = c.type === "timestamp(3)" ? `x."${c.name}"::timestamp(3)` : `x."${c.name}"`;
  return c.cast ? `${value}::"${c.cast}"` : value;
}

/** The pieces of an `INSERT … SELECT … FROM json_to_recordset` for callers that compose their own statement. */
export function recordset(columns: BulkColumn[]) {
  return {
    names: columns.map((c) => `"${c.name}"`).join(", "),
    values: columns.map(recordsetValue).join(", "),
    fields: recordsetFields(columns),
  };
}

export async function bulkInsert(
  tx: Tx,
  table: string,
  columns: BulkColumn[],
  rows: Record<string, unknown>[],
  /** SQL appended to the statement, e.g. an ON CONFLICT clause (from code, never input). */
  suffix = "",
): Promise<number> {
  if (!rows.length) return 0;
  const names = columns.map((c) => `"${c.name}"`).join(", ");
  const values = columns.map(recordsetValue).join(", ");
  return tx.$executeRawUnsafe(
    `INSERT INTO "${table}" (${names}) SELECT ${values} FROM json_to_recordset($1::json) AS x(${recordsetFields(columns)}) ${suffix}`,
    JSON.stringify(rows),
  );
}

/** Updates rows in place by id, every column but the id from the row of the same id. */
export async function bulkUpdate(
  tx: Tx,
  table: string,
  columns: BulkColumn[],
  rows: Record<string, unknown>[],
): Promise<number> {
  if (!rows.length) return 0;
  const sets = columns
    .filter((c) => c.name !== "id")
    .map((c) => `"${c.name}" = ${recordsetValue(c)}`)
    .join(", ");
  return tx.$executeRawUnsafe(
    `UPDATE "${table}" AS t SET ${sets} FROM json_to_recordset($1::json) AS x(${recordsetFields(columns)}) WHERE t.id = x.id`,
    JSON.stringify(rows),
  );
}

export async function deleteByIds(tx: Tx, table: string, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  return tx.$executeRawUnsafe(`DELETE FROM "${table}" WHERE id = ANY($1::text[])`, ids);
}
