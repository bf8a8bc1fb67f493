-- AlterTable
ALTER TABLE "source" ADD COLUMN     "promptPrefix" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "source_promptPrefix_key" ON "source"("promptPrefix");
