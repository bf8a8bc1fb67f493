-- AlterTable
ALTER TABLE "tool" ADD COLUMN     "callTimeoutSeconds" INTEGER;
