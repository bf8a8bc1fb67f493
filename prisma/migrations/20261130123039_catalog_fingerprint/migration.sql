-- AlterTable
ALTER TABLE "source" ADD COLUMN     "catalogFingerprint" TEXT;
