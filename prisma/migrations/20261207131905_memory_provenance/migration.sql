-- AlterTable
ALTER TABLE "memory" ADD COLUMN     "authorTokenId" TEXT,
ADD COLUMN     "callId" TEXT,
ADD COLUMN     "clientName" TEXT,
ADD COLUMN     "clientVersion" TEXT,
ADD COLUMN     "writtenVia" TEXT;

-- CreateTable
CREATE TABLE "signing_key" (
    "id" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "privateKey" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signing_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trusted_signing_key" (
    "fingerprint" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "addedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "addedBy" TEXT NOT NULL,

    CONSTRAINT "trusted_signing_key_pkey" PRIMARY KEY ("fingerprint")
);

-- CreateIndex
CREATE INDEX "memory_scopeId_callId_idx" ON "memory"("scopeId", "callId");
