-- Tool definitions move to a table keyed by their hash (decisions/0006), keeping every
-- definition already published.

-- CreateTable
CREATE TABLE "tool_definition" (
    "hash" TEXT NOT NULL,
    "definition" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "stagedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tool_definition_pkey" PRIMARY KEY ("hash")
);

-- Copy what the catalog holds (one row per distinct definition) before the column goes.
INSERT INTO "tool_definition" ("hash", "definition", "bytes")
SELECT DISTINCT ON ("definitionHash") "definitionHash", "definition", "definitionBytes"
FROM "tool"
ORDER BY "definitionHash";

-- AlterTable
ALTER TABLE "tool" DROP COLUMN "definition";

-- AlterTable
ALTER TABLE "source" ADD COLUMN "catalogVersion" INTEGER NOT NULL DEFAULT 0;
