-- AlterTable
ALTER TABLE "memory" ADD COLUMN     "flagClearedAt" TIMESTAMP(3),
ADD COLUMN     "flagClearedBy" TEXT,
ADD COLUMN     "flagReasons" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "flagged" BOOLEAN NOT NULL DEFAULT false;
