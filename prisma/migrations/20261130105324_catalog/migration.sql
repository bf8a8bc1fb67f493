-- CreateEnum
CREATE TYPE "SourceKind" AS ENUM ('mcp_connection', 'sdk_tool_host');

-- CreateEnum
CREATE TYPE "ToolCompatibility" AS ENUM ('compatible', 'schema_unsupported', 'input_not_object', 'external_ref', 'top_level_combinator', 'too_many_arguments');

-- CreateEnum
CREATE TYPE "CheckStatus" AS ENUM ('running', 'succeeded', 'failed');

-- CreateEnum
CREATE TYPE "CheckTrigger" AS ENUM ('schedule', 'manual', 'registration', 'create');

-- CreateEnum
CREATE TYPE "CatalogChangeKind" AS ENUM ('added', 'removed', 'changed', 'became_incompatible', 'became_compatible', 'withdrawn', 'restored', 'source_deleted');

-- CreateTable
CREATE TABLE "source" (
    "id" TEXT NOT NULL,
    "kind" "SourceKind" NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "url" TEXT,
    "encryptedHeaders" TEXT,
    "headerNames" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "checkIntervalSeconds" INTEGER,
    "hostTokenHash" TEXT,
    "hostTokenPrefix" TEXT,
    "heartbeatTimeoutSeconds" INTEGER,
    "lastHeartbeatAt" TIMESTAMP(3),
    "hostSilentSince" TIMESTAMP(3),
    "pausedAt" TIMESTAMP(3),
    "lastCheckAt" TIMESTAMP(3),
    "lastSuccessAt" TIMESTAMP(3),
    "failingSince" TIMESTAMP(3),
    "lastFailureCode" TEXT,
    "lastFailureMessage" TEXT,
    "lastFailureDetails" JSONB,
    "toolCount" INTEGER NOT NULL DEFAULT 0,
    "compatibleToolCount" INTEGER NOT NULL DEFAULT 0,
    "modelFacingBytes" INTEGER NOT NULL DEFAULT 0,
    "definitionBytes" INTEGER NOT NULL DEFAULT 0,
    "nextCheckAt" TIMESTAMP(3),
    "leaseUntil" TIMESTAMP(3),
    "leaseOwner" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "source_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tool" (
    "id" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "nativeName" TEXT NOT NULL,
    "title" TEXT,
    "description" TEXT NOT NULL DEFAULT '',
    "inputSchema" JSONB NOT NULL,
    "outputSchema" JSONB,
    "annotations" JSONB,
    "definition" JSONB NOT NULL,
    "definitionBytes" INTEGER NOT NULL,
    "definitionHash" TEXT NOT NULL,
    "compatibility" "ToolCompatibility" NOT NULL,
    "compatibilityReason" TEXT,
    "modelFacingName" TEXT,
    "modelFacingBytes" INTEGER NOT NULL DEFAULT 0,
    "firstSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastChangedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tool_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "catalog_check" (
    "id" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "trigger" "CheckTrigger" NOT NULL,
    "status" "CheckStatus" NOT NULL DEFAULT 'running',
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "failureCode" TEXT,
    "failureMessage" TEXT,
    "failureDetails" JSONB,
    "pages" INTEGER NOT NULL DEFAULT 0,
    "tools" INTEGER NOT NULL DEFAULT 0,
    "bytes" INTEGER NOT NULL DEFAULT 0,
    "added" INTEGER NOT NULL DEFAULT 0,
    "removed" INTEGER NOT NULL DEFAULT 0,
    "changed" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "catalog_check_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "catalog_change" (
    "id" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "sourceName" TEXT NOT NULL,
    "checkId" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "kind" "CatalogChangeKind" NOT NULL,
    "nativeName" TEXT NOT NULL,
    "modelFacingName" TEXT,
    "detail" TEXT,

    CONSTRAINT "catalog_change_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "source_name_key" ON "source"("name");

-- CreateIndex
CREATE UNIQUE INDEX "source_hostTokenHash_key" ON "source"("hostTokenHash");

-- CreateIndex
CREATE INDEX "source_kind_nextCheckAt_idx" ON "source"("kind", "nextCheckAt");

-- CreateIndex
CREATE UNIQUE INDEX "tool_modelFacingName_key" ON "tool"("modelFacingName");

-- CreateIndex
CREATE INDEX "tool_compatibility_idx" ON "tool"("compatibility");

-- CreateIndex
CREATE INDEX "tool_nativeName_idx" ON "tool"("nativeName");

-- CreateIndex
CREATE UNIQUE INDEX "tool_sourceId_nativeName_key" ON "tool"("sourceId", "nativeName");

-- CreateIndex
CREATE INDEX "catalog_check_sourceId_startedAt_idx" ON "catalog_check"("sourceId", "startedAt");

-- CreateIndex
CREATE INDEX "catalog_change_sourceId_at_idx" ON "catalog_change"("sourceId", "at");

-- CreateIndex
CREATE INDEX "catalog_change_at_idx" ON "catalog_change"("at");

-- AddForeignKey
ALTER TABLE "tool" ADD CONSTRAINT "tool_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "source"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "catalog_check" ADD CONSTRAINT "catalog_check_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "source"("id") ON DELETE CASCADE ON UPDATE CASCADE;
