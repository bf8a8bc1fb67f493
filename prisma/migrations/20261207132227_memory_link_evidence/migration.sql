-- CreateTable
CREATE TABLE "memory_link_offer" (
    "tokenId" TEXT NOT NULL,
    "memoryId" TEXT NOT NULL,
    "identityId" TEXT NOT NULL,
    "clientName" TEXT NOT NULL,
    "clientVersion" TEXT NOT NULL,
    "via" TEXT NOT NULL,
    "offeredAt" TIMESTAMP(3) NOT NULL,
    "followedAt" TIMESTAMP(3),
    "followedBy" TEXT,

    CONSTRAINT "memory_link_offer_pkey" PRIMARY KEY ("tokenId","memoryId")
);

-- CreateTable
CREATE TABLE "mcp_token_client" (
    "tokenId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "mcp_token_client_pkey" PRIMARY KEY ("tokenId")
);

-- CreateTable
CREATE TABLE "memory_screening_backfill" (
    "id" INTEGER NOT NULL,
    "throughSeq" INTEGER NOT NULL,
    "cursorSeq" INTEGER NOT NULL DEFAULT 0,
    "screened" INTEGER NOT NULL DEFAULT 0,
    "flagged" INTEGER NOT NULL DEFAULT 0,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "memory_screening_backfill_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "memory_link_offer_identityId_clientName_clientVersion_idx" ON "memory_link_offer"("identityId", "clientName", "clientVersion");

-- CreateIndex
CREATE INDEX "memory_link_offer_offeredAt_idx" ON "memory_link_offer"("offeredAt");

-- The memories written before this migration are the ones the scheduler screens once more
-- (docs/decisions/0091). On an empty database there is nothing to do.
INSERT INTO "memory_screening_backfill" ("id", "throughSeq", "finishedAt")
SELECT 1, COALESCE(MAX("seq"), 0), CASE WHEN COUNT(*) = 0 THEN CURRENT_TIMESTAMP END FROM "memory";
