-- Call policies (docs/decisions/0075, 0076): who must agree before a Tool Call runs, the
-- single-use record of confirmations, calls parked for approval, and the approver role.
-- CreateEnum
CREATE TYPE "CallPolicy" AS ENUM ('none', 'confirm', 'approve');

-- CreateEnum
CREATE TYPE "ParkedCallStatus" AS ENUM ('pending', 'approved', 'denied', 'expired', 'ran');

-- AlterEnum
ALTER TYPE "Role" ADD VALUE 'approver';

-- AlterTable
ALTER TABLE "source" ADD COLUMN     "callPolicy" "CallPolicy" NOT NULL DEFAULT 'none';

-- AlterTable
ALTER TABLE "tool" ADD COLUMN     "callPolicy" "CallPolicy";

-- CreateTable
CREATE TABLE "confirmation_use" (
    "nonce" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "confirmation_use_pkey" PRIMARY KEY ("nonce")
);

-- CreateTable
CREATE TABLE "parked_call" (
    "id" TEXT NOT NULL,
    "identityId" TEXT NOT NULL,
    "identityName" TEXT NOT NULL,
    "tokenId" TEXT,
    "toolName" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "sourceName" TEXT NOT NULL,
    "definitionHash" TEXT NOT NULL,
    "argumentsDigest" TEXT NOT NULL,
    "arguments" TEXT NOT NULL,
    "status" "ParkedCallStatus" NOT NULL DEFAULT 'pending',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "decidedAt" TIMESTAMP(3),
    "decidedById" TEXT,
    "decidedByLabel" TEXT,
    "reason" TEXT,
    "result" TEXT,
    "ranAt" TIMESTAMP(3),

    CONSTRAINT "parked_call_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "confirmation_use_expiresAt_idx" ON "confirmation_use"("expiresAt");

-- CreateIndex
CREATE INDEX "parked_call_status_createdAt_idx" ON "parked_call"("status", "createdAt");

-- CreateIndex
CREATE INDEX "parked_call_identityId_idx" ON "parked_call"("identityId");
