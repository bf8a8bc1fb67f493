-- AlterEnum
ALTER TYPE "ToolCallStatus" ADD VALUE 'cancelled';

-- AlterTable
ALTER TABLE "tool_call" ADD COLUMN     "requestKey" TEXT;

-- CreateIndex
CREATE INDEX "tool_call_requestKey_idx" ON "tool_call"("requestKey");
