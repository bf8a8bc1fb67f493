-- Tools already in the catalog that were published with execution.taskSupport "required":
-- a plain tools/call cannot run them, so they stop being offered (Task required), each with
-- a "became incompatible" change so every identity that held one sees it in Lost recently.
-- The enum value was added by the previous migration (it must be committed before use).
CREATE TEMP TABLE task_tool AS
SELECT t.id, t."sourceId", s.name AS "sourceName", t."nativeName", t."modelFacingName"
  FROM tool t
  JOIN tool_definition d ON d.hash = t."definitionHash"
  JOIN source s ON s.id = t."sourceId"
 WHERE t.compatibility <> 'task_required'
   AND (d.definition::jsonb #>> '{execution,taskSupport}') = 'required';

INSERT INTO catalog_change (id, "sourceId", "sourceName", kind, "nativeName", "modelFacingName", detail)
SELECT gen_random_uuid()::text, "sourceId", "sourceName", 'became_incompatible', "nativeName", "modelFacingName", 'task_required'
  FROM task_tool WHERE "modelFacingName" IS NOT NULL;

UPDATE tool SET
  compatibility = 'task_required',
  "compatibilityReason" = 'The Tool is published with "execution": { "taskSupport": "required" }: its server runs it only as an MCP task, which a plain tools/call from a model cannot start. Publish it with taskSupport "optional" (or omit "execution") where the Tool is defined; the next catalog check picks it up.',
  "modelFacingName" = NULL,
  "modelFacingBytes" = 0
 WHERE id IN (SELECT id FROM task_tool);

UPDATE source SET
  "compatibleToolCount" = t.compatible, "modelFacingBytes" = t.mf
  FROM (
    SELECT "sourceId",
           (count(*) FILTER (WHERE compatibility = 'compatible'))::int AS compatible,
           COALESCE(sum("modelFacingBytes") FILTER (WHERE compatibility = 'compatible'), 0)::int AS mf
      FROM tool WHERE "sourceId" IN (SELECT "sourceId" FROM task_tool) GROUP BY "sourceId"
  ) t
 WHERE source.id = t."sourceId";
DROP TABLE task_tool;
