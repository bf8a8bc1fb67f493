-- A check's changes are read by check id (the check history); nothing reads changes by
-- time alone. Swapping the index keeps a 4,096-Tool import at three index writes per row.

-- DropIndex
DROP INDEX "catalog_change_at_idx";

-- CreateIndex
CREATE INDEX "catalog_change_checkId_idx" ON "catalog_change"("checkId");
