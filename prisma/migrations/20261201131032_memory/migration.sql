-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateEnum
CREATE TYPE "ScopeAccess" AS ENUM ('read', 'write');

-- CreateEnum
CREATE TYPE "MemoryKind" AS ENUM ('note', 'decision', 'fact', 'handoff', 'briefing', 'debrief');

-- CreateEnum
CREATE TYPE "ProposalKind" AS ENUM ('merge', 'supersede', 'discard');

-- CreateEnum
CREATE TYPE "ProposalStatus" AS ENUM ('pending', 'accepted', 'rejected', 'stale');

-- AlterTable
ALTER TABLE "agent_token" ADD COLUMN     "workingScopeId" TEXT;

-- CreateTable
CREATE TABLE "scope" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "consolidateEverySeconds" INTEGER NOT NULL DEFAULT 3600,
    "nextConsolidationAt" TIMESTAMP(3),
    "lastConsolidatedAt" TIMESTAMP(3),
    "leaseUntil" TIMESTAMP(3),
    "leaseOwner" TEXT,

    CONSTRAINT "scope_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scope_grant" (
    "scopeId" TEXT NOT NULL,
    "identityId" TEXT NOT NULL,
    "access" "ScopeAccess" NOT NULL,
    "grantedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scope_grant_pkey" PRIMARY KEY ("scopeId","identityId")
);

-- CreateTable
CREATE TABLE "memory" (
    "id" TEXT NOT NULL,
    "seq" SERIAL NOT NULL,
    "scopeId" TEXT NOT NULL,
    "kind" "MemoryKind" NOT NULL,
    "body" TEXT,
    "title" TEXT NOT NULL,
    "bodyBytes" INTEGER NOT NULL,
    "contentHash" TEXT,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "authorType" TEXT NOT NULL,
    "authorId" TEXT,
    "authorLabel" TEXT NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "recordedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "episodeId" TEXT NOT NULL,
    "supersededById" TEXT,
    "supersededAt" TIMESTAMP(3),
    "discardedAt" TIMESTAMP(3),
    "mergedFrom" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "erasedAt" TIMESTAMP(3),
    "erasedBy" TEXT,
    "erasureReason" TEXT,
    "searchVector" tsvector,
    "lshBands" INTEGER[] DEFAULT ARRAY[]::INTEGER[],

    CONSTRAINT "memory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "fact" (
    "id" TEXT NOT NULL,
    "scopeId" TEXT NOT NULL,
    "memoryId" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "predicate" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "subjectKey" TEXT NOT NULL,
    "predicateKey" TEXT NOT NULL,
    "validFrom" TIMESTAMP(3) NOT NULL,
    "validUntil" TIMESTAMP(3),
    "recordedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "fact_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "thread" (
    "id" TEXT NOT NULL,
    "scopeId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "archivedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "thread_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "thread_member" (
    "threadId" TEXT NOT NULL,
    "memoryId" TEXT NOT NULL,
    "addedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "pinnedAt" TIMESTAMP(3),

    CONSTRAINT "thread_member_pkey" PRIMARY KEY ("threadId","memoryId")
);

-- CreateTable
CREATE TABLE "proposal" (
    "id" TEXT NOT NULL,
    "scopeId" TEXT NOT NULL,
    "kind" "ProposalKind" NOT NULL,
    "status" "ProposalStatus" NOT NULL DEFAULT 'pending',
    "memoryIds" TEXT[],
    "key" TEXT NOT NULL,
    "rationale" TEXT NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "evidence" JSONB NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "filedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" TIMESTAMP(3),
    "decidedByType" TEXT,
    "decidedById" TEXT,
    "decidedByLabel" TEXT,
    "decisionReason" TEXT,
    "resultMemoryId" TEXT,

    CONSTRAINT "proposal_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "scope_name_key" ON "scope"("name");

-- CreateIndex
CREATE INDEX "scope_grant_identityId_idx" ON "scope_grant"("identityId");

-- CreateIndex
CREATE INDEX "memory_scopeId_occurredAt_idx" ON "memory"("scopeId", "occurredAt");

-- CreateIndex
CREATE INDEX "memory_scopeId_contentHash_idx" ON "memory"("scopeId", "contentHash");

-- CreateIndex
CREATE INDEX "memory_episodeId_occurredAt_seq_idx" ON "memory"("episodeId", "occurredAt", "seq");

-- CreateIndex
CREATE INDEX "memory_supersededById_idx" ON "memory"("supersededById");

-- CreateIndex
CREATE INDEX "memory_searchVector_idx" ON "memory" USING GIN ("searchVector");

-- CreateIndex
CREATE INDEX "memory_body_idx" ON "memory" USING GIN ("body" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "fact_scopeId_subjectKey_predicateKey_validFrom_idx" ON "fact"("scopeId", "subjectKey", "predicateKey", "validFrom");

-- CreateIndex
CREATE INDEX "fact_scopeId_validFrom_idx" ON "fact"("scopeId", "validFrom");

-- CreateIndex
CREATE INDEX "fact_memoryId_idx" ON "fact"("memoryId");

-- CreateIndex
CREATE UNIQUE INDEX "thread_scopeId_name_key" ON "thread"("scopeId", "name");

-- CreateIndex
CREATE INDEX "thread_member_memoryId_idx" ON "thread_member"("memoryId");

-- CreateIndex
CREATE INDEX "proposal_scopeId_status_filedAt_idx" ON "proposal"("scopeId", "status", "filedAt");

-- CreateIndex
CREATE UNIQUE INDEX "proposal_scopeId_key_key" ON "proposal"("scopeId", "key");

-- AddForeignKey
ALTER TABLE "scope_grant" ADD CONSTRAINT "scope_grant_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "scope"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scope_grant" ADD CONSTRAINT "scope_grant_identityId_fkey" FOREIGN KEY ("identityId") REFERENCES "agent_identity"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memory" ADD CONSTRAINT "memory_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "scope"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "fact" ADD CONSTRAINT "fact_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "scope"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "fact" ADD CONSTRAINT "fact_memoryId_fkey" FOREIGN KEY ("memoryId") REFERENCES "memory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "thread" ADD CONSTRAINT "thread_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "scope"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "thread_member" ADD CONSTRAINT "thread_member_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "thread_member" ADD CONSTRAINT "thread_member_memoryId_fkey" FOREIGN KEY ("memoryId") REFERENCES "memory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "proposal" ADD CONSTRAINT "proposal_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "scope"("id") ON DELETE CASCADE ON UPDATE CASCADE;
