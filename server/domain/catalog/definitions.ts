/**
 * Tool definitions live in tool_definition, keyed by the SHA-256 of their canonical JSON.
 * A catalog check writes the new definitions in batches while it is still reading pages,
 * so its publication transaction writes only the small Tool rows; Sources that publish the same
 * Tool share one copy. No Tool refers to a staged definition until its publication
 * commits, so the sweep removes only definitions that no Tool refers to and that nothing
 * staged within DEFINITION_GRACE_MS. See docs/decisions/0006-staged-tool-definitions.md.
 */
import { getDb } from "../../db";
import { type BulkColumn, bulkInsert } from "../../db/bulk";
import type { Tx } from "../../db/types";

/**
 * How long a staged definition is safe from the sweep: far longer than a check can take
 * from staging to commit (30 s of listing, then at most minutes waiting for the Source's
 * lock), so a publication never refers to a swept definition.
 */
export const DEFINITION_GRACE_MS = 60 * 60_000;
/** Re-staging refreshes an older stamp, so the grace period always covers a check in flight. */
const RESTAGE_AFTER_MS = 10 * 60_000;
/**
 * Definitions are written in batches of about this size: a statement per page costs more
 * in per-statement overhead than it saves (128 small pages), while a few large ones still
 * overlap the listing.
 */
const STAGE_BATCH_BYTES = 256 * 1024;

export interface StorableDefinition {
  definitionHash: string;
  canonical: string;
  definitionBytes: number;
}

const COLUMNS: BulkColumn[] = [
  { name: "hash", type: "text" },
  { name: "definition", type: "text" },
  { name: "bytes", type: "integer" },
];

// Timestamps are stored as UTC without a zone (as Prisma writes them), whatever the server's TimeZone.
const UTC_NOW = `(now() AT TIME ZONE 'UTC')`;

export async function writeDefinitions(tx: Tx, definitions: StorableDefinition[]): Promise<void> {
  await bulkInsert(
    tx,
    "tool_definition",
    COLUMNS,
    definitions.map((d) => ({ hash: d.definitionHash, definition: d.canonical, bytes: d.definitionBytes })),
    `ON CONFLICT (hash) DO UPDATE SET "stagedAt" = ${UTC_NOW}
     WHERE tool_definition."stagedAt" < ${UTC_NOW} - make_interval(secs => ${RESTAGE_AFTER_MS / 1000})`,
  );
}

/**
 * Writes a check's definitions as its pages arrive, in the background of the listing.
 * Definitions the Source already publishes are skipped: an unchanged re-check writes
 * nothing. `staged()` waits for the writes and says which hashes are stored.
 */
export class DefinitionStager {
  private readonly written = new Set<string>();
  private batch: StorableDefinition[] = [];
  private batchBytes = 0;
  private pending: Promise<void> = Promise.resolve();
  private failure: unknown;

  private known: ReadonlySet<string> | undefined;

  /** `known`: the definitions the Source publishes already, which need no writing. */
  constructor(known: Promise<ReadonlySet<string>>) {
    this.pending = known.then(
      (set) => {
        this.known = set;
      },
      (error) => {
        this.failure = error;
      },
    );
  }

  stage(definitions: StorableDefinition[]): void {
    if (!this.known) {
      // Still being read (it overlaps the server's first answers): sort these out once it is.
      this.pending = this.pending.then(() => {
        if (this.known) this.stage(definitions);
      });
      return;
    }
    const known = this.known;
    const fresh = definitions.filter((d) => !known.has(d.definitionHash) && !this.written.has(d.definitionHash));
    for (const d of fresh) {
      this.written.add(d.definitionHash);
      this.batch.push(d);
      this.batchBytes += d.definitionBytes;
    }
    if (this.batchBytes >= STAGE_BATCH_BYTES) this.write();
  }

  private write(): void {
    const fresh = this.batch;
    if (!fresh.length) return;
    this.batch = [];
    this.batchBytes = 0;
    this.pending = this.pending
      .then(async () => {
        if (this.failure === undefined) await writeDefinitions(await getDb(), fresh);
      })
      .catch((error) => {
        this.failure ??= error;
      });
  }

  async staged(): Promise<ReadonlySet<string>> {
    await this.pending;
    this.write();
    await this.pending;
    if (this.failure !== undefined) throw this.failure;
    return this.written;
  }
}

/**
 * Deletes definitions no Tool refers to, once past the grace period. A Tool awaiting review
 * refers to its approved definition too: the reviewer's diff needs it.
 */
export async function sweepDefinitions(): Promise<number> {
  const db = await getDb();
  return db.$executeRawUnsafe(`
    DELETE FROM tool_definition d
    WHERE d."stagedAt" < ${UTC_NOW} - make_interval(secs => ${DEFINITION_GRACE_MS / 1000})
      AND NOT EXISTS (SELECT 1 FROM tool t WHERE t."definitionHash" = d.hash)
      AND NOT EXISTS (SELECT 1 FROM tool t WHERE t."approvedHash" = d.hash)`);
}
