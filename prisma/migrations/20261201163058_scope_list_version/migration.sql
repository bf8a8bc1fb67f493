-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- AlterTable
ALTER TABLE "scope" ADD COLUMN     "listVersion" BIGINT NOT NULL DEFAULT 0;

-- The scope's list version moves with every statement that writes its memories, threads,
-- thread memberships or proposals, whatever code path runs it (domain writes, imports,
-- erasure, the consolidator): console lists poll it and refetch rows only when it moved.
-- One UPDATE per statement and scope (statement triggers with transition tables), so an
-- import of 20,000 memories bumps it once, not 20,000 times.
-- The body is an E-string whose semicolons are written \x3B: the PostgreSQL driver adapter
-- cuts a migration at every semicolon, even inside a dollar-quoted body.
CREATE FUNCTION "scope_list_bump"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_TABLE_NAME = ''thread_member'' THEN
    UPDATE "scope" SET "listVersion" = "listVersion" + 1
     WHERE "id" IN (SELECT t."scopeId" FROM "thread" t WHERE t."id" IN (SELECT "threadId" FROM "changed_rows"))\x3B
  ELSE
    UPDATE "scope" SET "listVersion" = "listVersion" + 1
     WHERE "id" IN (SELECT "scopeId" FROM "changed_rows")\x3B
  END IF\x3B
  RETURN NULL\x3B
END';

CREATE TRIGGER "memory_list_insert" AFTER INSERT ON "memory" REFERENCING NEW TABLE AS "changed_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "scope_list_bump"();
CREATE TRIGGER "memory_list_update" AFTER UPDATE ON "memory" REFERENCING NEW TABLE AS "changed_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "scope_list_bump"();
CREATE TRIGGER "memory_list_delete" AFTER DELETE ON "memory" REFERENCING OLD TABLE AS "changed_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "scope_list_bump"();
CREATE TRIGGER "thread_list_insert" AFTER INSERT ON "thread" REFERENCING NEW TABLE AS "changed_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "scope_list_bump"();
CREATE TRIGGER "thread_list_update" AFTER UPDATE ON "thread" REFERENCING NEW TABLE AS "changed_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "scope_list_bump"();
CREATE TRIGGER "thread_list_delete" AFTER DELETE ON "thread" REFERENCING OLD TABLE AS "changed_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "scope_list_bump"();
CREATE TRIGGER "thread_member_list_insert" AFTER INSERT ON "thread_member" REFERENCING NEW TABLE AS "changed_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "scope_list_bump"();
CREATE TRIGGER "thread_member_list_update" AFTER UPDATE ON "thread_member" REFERENCING NEW TABLE AS "changed_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "scope_list_bump"();
CREATE TRIGGER "thread_member_list_delete" AFTER DELETE ON "thread_member" REFERENCING OLD TABLE AS "changed_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "scope_list_bump"();
CREATE TRIGGER "proposal_list_insert" AFTER INSERT ON "proposal" REFERENCING NEW TABLE AS "changed_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "scope_list_bump"();
CREATE TRIGGER "proposal_list_update" AFTER UPDATE ON "proposal" REFERENCING NEW TABLE AS "changed_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "scope_list_bump"();
CREATE TRIGGER "proposal_list_delete" AFTER DELETE ON "proposal" REFERENCING OLD TABLE AS "changed_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "scope_list_bump"();
