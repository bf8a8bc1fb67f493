-- Every reference between a memory and what hangs off it stays inside one scope: composite
-- foreign keys (scopeId, id), so no code path can write one across scopes.

-- DropForeignKey
ALTER TABLE "fact" DROP CONSTRAINT "fact_memoryId_fkey";

-- DropForeignKey
ALTER TABLE "handoff" DROP CONSTRAINT "handoff_memoryId_fkey";

-- DropForeignKey
ALTER TABLE "thread_member" DROP CONSTRAINT "thread_member_memoryId_fkey";

-- DropForeignKey
ALTER TABLE "thread_member" DROP CONSTRAINT "thread_member_threadId_fkey";

-- AlterTable: the membership carries its thread's scope.
ALTER TABLE "thread_member" ADD COLUMN     "scopeId" TEXT;
UPDATE "thread_member" tm SET "scopeId" = t."scopeId" FROM "thread" t WHERE t."id" = tm."threadId";

-- References that crossed scopes before the keys below made them unwritable (an import could
-- write them) go: a membership or fact naming another scope's memory, a supersession or merge
-- result pointing into another scope, a handoff whose memory lies elsewhere.
DELETE FROM "thread_member" tm WHERE tm."scopeId" IS NULL
   OR NOT EXISTS (SELECT 1 FROM "memory" m WHERE m."id" = tm."memoryId" AND m."scopeId" = tm."scopeId");
DELETE FROM "fact" f WHERE NOT EXISTS (SELECT 1 FROM "memory" m WHERE m."id" = f."memoryId" AND m."scopeId" = f."scopeId");
DELETE FROM "handoff" h WHERE NOT EXISTS (SELECT 1 FROM "memory" m WHERE m."id" = h."memoryId" AND m."scopeId" = h."scopeId");
UPDATE "handoff" h SET "toThreadId" = NULL WHERE h."toThreadId" IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM "thread" t WHERE t."id" = h."toThreadId" AND t."scopeId" = h."scopeId");
DELETE FROM "handoff" WHERE "toThreadId" IS NULL AND "toIdentityId" IS NULL;
UPDATE "memory" m SET "supersededById" = NULL, "supersededAt" = NULL WHERE m."supersededById" IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM "memory" s WHERE s."id" = m."supersededById" AND s."scopeId" = m."scopeId");
UPDATE "proposal" p SET "resultMemoryId" = NULL WHERE p."resultMemoryId" IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM "memory" m WHERE m."id" = p."resultMemoryId" AND m."scopeId" = p."scopeId");

-- contract: an older running version inserts memberships without "scopeId", and the trigger below fills it from the thread, so its writes still succeed.
ALTER TABLE "thread_member" ALTER COLUMN "scopeId" SET NOT NULL;

-- (E-string with \x3B for semicolons: the PostgreSQL driver adapter cuts a migration at each.)
CREATE FUNCTION "thread_member_scope"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF NEW."scopeId" IS NULL THEN
    SELECT t."scopeId" INTO NEW."scopeId" FROM "thread" t WHERE t."id" = NEW."threadId"\x3B
  END IF\x3B
  RETURN NEW\x3B
END';
CREATE TRIGGER "thread_member_scope" BEFORE INSERT ON "thread_member"
  FOR EACH ROW EXECUTE FUNCTION "thread_member_scope"();

-- CreateIndex
CREATE UNIQUE INDEX "handoff_scopeId_memoryId_key" ON "handoff"("scopeId", "memoryId");

-- CreateIndex
CREATE UNIQUE INDEX "memory_scopeId_id_key" ON "memory"("scopeId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "thread_scopeId_id_key" ON "thread"("scopeId", "id");

-- AddForeignKey
ALTER TABLE "memory" ADD CONSTRAINT "memory_scopeId_supersededById_fkey" FOREIGN KEY ("scopeId", "supersededById") REFERENCES "memory"("scopeId", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "fact" ADD CONSTRAINT "fact_scopeId_memoryId_fkey" FOREIGN KEY ("scopeId", "memoryId") REFERENCES "memory"("scopeId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "thread_member" ADD CONSTRAINT "thread_member_scopeId_threadId_fkey" FOREIGN KEY ("scopeId", "threadId") REFERENCES "thread"("scopeId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "thread_member" ADD CONSTRAINT "thread_member_scopeId_memoryId_fkey" FOREIGN KEY ("scopeId", "memoryId") REFERENCES "memory"("scopeId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "proposal" ADD CONSTRAINT "proposal_scopeId_resultMemoryId_fkey" FOREIGN KEY ("scopeId", "resultMemoryId") REFERENCES "memory"("scopeId", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "handoff" ADD CONSTRAINT "handoff_scopeId_memoryId_fkey" FOREIGN KEY ("scopeId", "memoryId") REFERENCES "memory"("scopeId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "handoff" ADD CONSTRAINT "handoff_scopeId_toThreadId_fkey" FOREIGN KEY ("scopeId", "toThreadId") REFERENCES "thread"("scopeId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
