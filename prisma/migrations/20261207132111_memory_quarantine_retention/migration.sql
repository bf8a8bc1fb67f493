-- CreateEnum
CREATE TYPE "AgentWrites" AS ENUM ('direct', 'review');

-- AlterEnum
ALTER TYPE "ProposalKind" ADD VALUE 'admit';

-- AlterTable
ALTER TABLE "memory" ADD COLUMN     "admittedAt" TIMESTAMP(3),
ADD COLUMN     "admittedBy" TEXT,
ADD COLUMN     "quarantined" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "scope" ADD COLUMN     "agentWrites" "AgentWrites" NOT NULL DEFAULT 'direct';

-- CreateTable
CREATE TABLE "retention_rule" (
    "id" TEXT NOT NULL,
    "scopeId" TEXT NOT NULL,
    "kind" "MemoryKind" NOT NULL,
    "days" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "createdBy" TEXT NOT NULL,
    "lastRunAt" TIMESTAMP(3),

    CONSTRAINT "retention_rule_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "retention_rule_scopeId_kind_key" ON "retention_rule"("scopeId", "kind");

-- AddForeignKey
ALTER TABLE "retention_rule" ADD CONSTRAINT "retention_rule_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "scope"("id") ON DELETE CASCADE ON UPDATE CASCADE;
