-- CreateEnum
CREATE TYPE "AssignmentEventKind" AS ENUM ('assigned', 'unassigned');

-- CreateTable
CREATE TABLE "agent_identity" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "instructions" TEXT NOT NULL DEFAULT '',
    "instructionsBytes" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "agent_identity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "source_assignment" (
    "identityId" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "assignedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "source_assignment_pkey" PRIMARY KEY ("identityId","sourceId")
);

-- CreateTable
CREATE TABLE "assignment_event" (
    "id" TEXT NOT NULL,
    "identityId" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "sourceName" TEXT NOT NULL,
    "kind" "AssignmentEventKind" NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "toolCount" INTEGER NOT NULL,
    "bytes" INTEGER NOT NULL,

    CONSTRAINT "assignment_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_token" (
    "id" TEXT NOT NULL,
    "identityId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "agent_token_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "agent_identity_name_key" ON "agent_identity"("name");

-- CreateIndex
CREATE INDEX "source_assignment_sourceId_idx" ON "source_assignment"("sourceId");

-- CreateIndex
CREATE INDEX "assignment_event_identityId_at_idx" ON "assignment_event"("identityId", "at");

-- CreateIndex
CREATE UNIQUE INDEX "agent_token_hash_key" ON "agent_token"("hash");

-- CreateIndex
CREATE INDEX "agent_token_identityId_idx" ON "agent_token"("identityId");

-- CreateIndex
CREATE INDEX "tool_sourceId_modelFacingBytes_idx" ON "tool"("sourceId", "modelFacingBytes");

-- AddForeignKey
ALTER TABLE "source_assignment" ADD CONSTRAINT "source_assignment_identityId_fkey" FOREIGN KEY ("identityId") REFERENCES "agent_identity"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "source_assignment" ADD CONSTRAINT "source_assignment_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "source"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assignment_event" ADD CONSTRAINT "assignment_event_identityId_fkey" FOREIGN KEY ("identityId") REFERENCES "agent_identity"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_token" ADD CONSTRAINT "agent_token_identityId_fkey" FOREIGN KEY ("identityId") REFERENCES "agent_identity"("id") ON DELETE CASCADE ON UPDATE CASCADE;
