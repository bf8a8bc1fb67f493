import type { Tx } from "../../db/types";

type SourceWideKind = "withdrawn" | "restored" | "source_deleted";

/**
 * Records one change for every Tool of a Source (its SDK host went silent or came back,
 * or it was deleted), in one statement, before the Tools themselves change.
 */
export async function recordSourceWideChange(
  tx: Tx,
  source: { id: string; name: string },
  kind: SourceWideKind,
  at: Date,
): Promise<number> {
  return tx.$executeRaw`
    INSERT INTO catalog_change (id, "sourceId", "sourceName", at, kind, "nativeName", "modelFacingName")
    SELECT gen_random_uuid()::text, ${source.id}, ${source.name}, ${at}, ${kind}::"CatalogChangeKind", "nativeName", "modelFacingName"
    FROM tool WHERE "sourceId" = ${source.id}`;
}
