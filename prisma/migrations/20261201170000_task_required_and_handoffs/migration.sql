-- AlterEnum
ALTER TYPE "ToolCompatibility" ADD VALUE 'task_required';

-- CreateTable
CREATE TABLE "handoff" (
    "id" TEXT NOT NULL,
    "memoryId" TEXT NOT NULL,
    "scopeId" TEXT NOT NULL,
    "toIdentityId" TEXT,
    "toThreadId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "handoff_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "handoff_delivery" (
    "handoffId" TEXT NOT NULL,
    "identityId" TEXT NOT NULL,
    "deliveredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "handoff_delivery_pkey" PRIMARY KEY ("handoffId","identityId")
);

-- CreateIndex
CREATE UNIQUE INDEX "handoff_memoryId_key" ON "handoff"("memoryId");

-- CreateIndex
CREATE INDEX "handoff_scopeId_toIdentityId_idx" ON "handoff"("scopeId", "toIdentityId");

-- CreateIndex
CREATE INDEX "handoff_scopeId_toThreadId_idx" ON "handoff"("scopeId", "toThreadId");

-- AddForeignKey
ALTER TABLE "handoff" ADD CONSTRAINT "handoff_memoryId_fkey" FOREIGN KEY ("memoryId") REFERENCES "memory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "handoff" ADD CONSTRAINT "handoff_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "scope"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "handoff_delivery" ADD CONSTRAINT "handoff_delivery_handoffId_fkey" FOREIGN KEY ("handoffId") REFERENCES "handoff"("id") ON DELETE CASCADE ON UPDATE CASCADE;
