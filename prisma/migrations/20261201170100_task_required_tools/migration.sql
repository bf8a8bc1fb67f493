-- Tools already in the catalog that were published with execution.taskSupport "required"
-- cannot be run by a plain tools/call, so they stop being offered (Task required), each with
-- a "became incompatible" change so every identity that held one sees it in Lost recently.
-- The enum value was added by the previous migration (it must be committed before use).
-- One statement per step, no temporary table: on PostgreSQL each statement may run on
-- another pooled connection.
WITH task AS (
  SELECT t.id, t."sourceId", s.name AS "sourceName", t."nativeName", t."modelFacingName"
    FROM tool t
    JOIN tool_definition d ON d.hash = t."definitionHash"
    JOIN source s ON s.id = t."sourceId"
   WHERE t.compatibility <> 'task_required'
     AND d.definition LIKE '%"taskSupport"%'
     AND (d.definition::jsonb #>> '{execution,taskSupport}') = 'required'
), changes AS (
  INSERT INTO catalog_change (id, "sourceId", "sourceName", kind, "nativeName", "modelFacingName", detail)
  SELECT gen_random_uuid()::text, "sourceId", "sourceName", 'became_incompatible', "nativeName", "modelFacingName", 'task_required'
    FROM task WHERE "modelFacingName" IS NOT NULL
)
UPDATE tool SET
  compatibility = 'task_required',
  "compatibilityReason" = 'The Tool is published with "execution": { "taskSupport": "required" }: its server runs it only as an MCP task, which a plain tools/call from a model cannot start. Publish it with taskSupport "optional" (or omit "execution") where the Tool is defined, and the next catalog check picks it up.',
  "modelFacingName" = NULL,
  "modelFacingBytes" = 0
  FROM task
 WHERE tool.id = task.id;

UPDATE source SET
  "compatibleToolCount" = t.compatible, "modelFacingBytes" = t.mf
  FROM (
    SELECT "sourceId",
           (count(*) FILTER (WHERE compatibility = 'compatible'))::int AS compatible,
           COALESCE(sum("modelFacingBytes") FILTER (WHERE compatibility = 'compatible'), 0)::int AS mf
      FROM tool
     WHERE "sourceId" IN (SELECT "sourceId" FROM tool WHERE compatibility = 'task_required')
     GROUP BY "sourceId"
  ) t
 WHERE source.id = t."sourceId";
