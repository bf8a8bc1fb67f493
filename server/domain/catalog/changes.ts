import type { Tx } from "../../db/types";

type SourceWideKind = "withdrawn" | "restored" | "source_deleted";

/** A withdrawal's detail when the host said goodbye (it shut down), rather than went silent. */
export const HOST_CLOSED = "host_closed";

/**
 * Records one change for every Tool of a Source (its SDK host went silent or came back,
 * or it was deleted), in one statement, before the Tools themselves change.
 */
export async function recordSourceWideChange(
  tx: Tx,
  source: { id: string; name: string },
  kind: SourceWideKind,
  at: Date,
  /** Why, when the kind alone does not say (a withdrawal by the host's goodbye: HOST_CLOSED). */
  detail: string | null = null,
): Promise<number> {
  return tx.$executeRaw`
    INSERT INTO catalog_change (id, "sourceId", "sourceName", at, kind, "nativeName", "modelFacingName", detail)
    SELECT gen_random_uuid()::text, ${source.id}, ${source.name}, ${at}, ${kind}::"CatalogChangeKind", "nativeName", "modelFacingName", ${detail}
    FROM tool WHERE "sourceId" = ${source.id}`;
}
