-- CreateTable
CREATE TABLE "budget_snapshot" (
    "id" TEXT NOT NULL,
    "identityId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "toolsBytes" INTEGER NOT NULL,
    "instructionsBytes" INTEGER NOT NULL,
    "tools" INTEGER NOT NULL,

    CONSTRAINT "budget_snapshot_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "budget_snapshot_identityId_at_idx" ON "budget_snapshot"("identityId", "at");

-- AddForeignKey
ALTER TABLE "budget_snapshot" ADD CONSTRAINT "budget_snapshot_identityId_fkey" FOREIGN KEY ("identityId") REFERENCES "agent_identity"("id") ON DELETE CASCADE ON UPDATE CASCADE;
