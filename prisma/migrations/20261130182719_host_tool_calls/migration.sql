-- CreateEnum
CREATE TYPE "ToolCallStatus" AS ENUM ('pending', 'delivered', 'succeeded', 'failed');

-- CreateTable
CREATE TABLE "tool_call" (
    "id" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "nativeName" TEXT NOT NULL,
    "arguments" TEXT NOT NULL,
    "status" "ToolCallStatus" NOT NULL DEFAULT 'pending',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deadline" TIMESTAMP(3) NOT NULL,
    "deliveredAt" TIMESTAMP(3),
    "result" TEXT,

    CONSTRAINT "tool_call_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "tool_call_sourceId_status_createdAt_idx" ON "tool_call"("sourceId", "status", "createdAt");

-- AddForeignKey
ALTER TABLE "tool_call" ADD CONSTRAINT "tool_call_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "source"("id") ON DELETE CASCADE ON UPDATE CASCADE;
