-- AlterTable
ALTER TABLE "source" ADD COLUMN     "hostSoftware" TEXT;
