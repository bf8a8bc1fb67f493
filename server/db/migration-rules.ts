/**
 * The expand/contract rule for migrations, as a check (docs/postgresql.md, Rolling upgrades).
 * While version N+1 migrates the shared database, instances of version N keep serving on
 * it; so a migration may only add what N can ignore. Anything that takes away or changes
 * what N reads or writes (a table, a column, a name, a type, a new obligation on inserts)
 * waits for a later release that no running version needs it in (the contract step) and
 * says why that is safe in a `-- contract:` line.
 */

export interface BreakingStatement {
  rule: string;
  statement: string;
}

const RULES: { rule: string; test: (statement: string) => boolean }[] = [
  { rule: "DROP TABLE", test: (s) => /\bDROP\s+TABLE\b/.test(s) },
  { rule: "DROP COLUMN", test: (s) => /\bDROP\s+COLUMN\b/.test(s) },
  { rule: "RENAME", test: (s) => /\bRENAME\b/.test(s) },
  { rule: "ALTER COLUMN … TYPE", test: (s) => /\bALTER\s+COLUMN\s+\S+\s+(SET\s+DATA\s+)?TYPE\b/.test(s) },
  { rule: "SET NOT NULL", test: (s) => /\bSET\s+NOT\s+NULL\b/.test(s) },
  { rule: "DROP DEFAULT", test: (s) => /\bDROP\s+DEFAULT\b/.test(s) },
  {
    // An old version's inserts do not name the new column: without a default they fail.
    rule: "ADD COLUMN … NOT NULL without DEFAULT",
    test: (s) =>
      /\bADD\s+(COLUMN\s+)?("[^"]+"|\w+)\s+[^,]*\bNOT\s+NULL\b/.test(s) &&
      !/\bADD\s+(COLUMN\s+)?("[^"]+"|\w+)\s+[^,]*\b(DEFAULT|GENERATED)\b/.test(s) &&
      /\bALTER\s+TABLE\b/.test(s),
  },
  { rule: "DROP TYPE", test: (s) => /\bDROP\s+TYPE\b/.test(s) },
  // ADD VALUE only widens an enum; anything else changes what an old version may write.
  { rule: "ALTER TYPE (other than ADD VALUE)", test: (s) => /\bALTER\s+TYPE\b/.test(s) && !/\bADD\s+VALUE\b/.test(s) },
  { rule: "DROP VIEW / FUNCTION", test: (s) => /\bDROP\s+(MATERIALIZED\s+)?(VIEW|FUNCTION)\b/.test(s) },
  { rule: "TRUNCATE", test: (s) => /\bTRUNCATE\b/.test(s) },
];

/** The SQL without comments and string literals (a word in a comment or a value is not a statement). */
function codeOnly(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, " ")
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/'(?:[^']|'')*'/g, "''");
}

export function breakingStatements(sql: string): BreakingStatement[] {
  const found: BreakingStatement[] = [];
  for (const raw of codeOnly(sql).split(";")) {
    const statement = raw.replace(/\s+/g, " ").trim();
    if (!statement) continue;
    const upper = statement.toUpperCase();
    for (const { rule, test } of RULES) if (test(upper)) found.push({ rule, statement });
  }
  return found;
}

/** The migration's `-- contract: why this is safe` note, if it has one with a reason. */
export function contractNote(sql: string): string | null {
  const match = /^[ \t]*--[ \t]*contract:[ \t]*(\S.{9,})$/im.exec(sql);
  return match?.[1]?.trim() ?? null;
}

/** The migrations the rule applies to: those after the last one written before it existed. */
export const EXPAND_CONTRACT_SINCE = "20261201131032_memory";
