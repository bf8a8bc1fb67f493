-- CreateEnum
CREATE TYPE "ReviewPolicy" AS ENUM ('review', 'trust');

-- AlterEnum
ALTER TYPE "ToolCompatibility" ADD VALUE 'awaiting_review';
ALTER TYPE "ToolCompatibility" ADD VALUE 'review_rejected';

-- AlterTable
ALTER TABLE "source" ADD COLUMN     "createdById" TEXT,
ADD COLUMN     "createdByLabel" TEXT,
ADD COLUMN     "createdByType" TEXT,
ADD COLUMN     "reviewBaselineAt" TIMESTAMP(3),
ADD COLUMN     "reviewPolicy" "ReviewPolicy" NOT NULL DEFAULT 'review';

-- AlterTable
ALTER TABLE "tool" ADD COLUMN     "approvedDigest" TEXT,
ADD COLUMN     "approvedHash" TEXT,
ADD COLUMN     "rejectedDigest" TEXT,
ADD COLUMN     "reviewChanged" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "reviewDigest" TEXT,
ADD COLUMN     "reviewSince" TIMESTAMP(3);

-- Sources that exist already keep today's behaviour (trust) and count as reviewed: new ones
-- default to review. An operator puts an existing Source under review in the console, and what
-- it offers at that moment is approved by them (docs/decisions/0073).
UPDATE "source" SET "reviewPolicy" = 'trust', "reviewBaselineAt" = (now() AT TIME ZONE 'UTC');
