-- Tools that run only as tasks are callable now (/mcp runs them as tasks on their Source,
-- docs/decisions/0025, superseded), so their Sources' next publication judges them again.
-- A fingerprint equal to the Source's would skip that publication, so it is forgotten.
UPDATE "source" SET "catalogFingerprint" = NULL
WHERE "id" IN (SELECT "sourceId" FROM "tool" WHERE "compatibility" = 'task_required');
