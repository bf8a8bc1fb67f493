-- CreateEnum
CREATE TYPE "IdentityExposure" AS ENUM ('all', 'selection', 'auto');

-- AlterTable
ALTER TABLE "agent_identity" ADD COLUMN     "exposure" "IdentityExposure" NOT NULL DEFAULT 'auto',
ADD COLUMN     "listingBudgetBytes" INTEGER;

-- CreateTable
CREATE TABLE "tool_pin" (
    "identityId" TEXT NOT NULL,
    "modelFacingName" TEXT NOT NULL,
    "pinnedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tool_pin_pkey" PRIMARY KEY ("identityId","modelFacingName")
);

-- AddForeignKey
ALTER TABLE "tool_pin" ADD CONSTRAINT "tool_pin_identityId_fkey" FOREIGN KEY ("identityId") REFERENCES "agent_identity"("id") ON DELETE CASCADE ON UPDATE CASCADE;
