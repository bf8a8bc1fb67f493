-- The memories a captured call's payloads carried: erasing a memory clears every payload
-- that may quote it. Empty for rows without payloads (an older version writes none here).
ALTER TABLE "call_log" ADD COLUMN "memoryIds" TEXT[] DEFAULT ARRAY[]::TEXT[];
