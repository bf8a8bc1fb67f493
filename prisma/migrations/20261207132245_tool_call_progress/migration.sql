-- CreateTable
CREATE TABLE "tool_call_progress" (
    "callId" TEXT NOT NULL,
    "progress" DOUBLE PRECISION,
    "total" DOUBLE PRECISION,
    "message" TEXT,
    "reportedAt" TIMESTAMP(3),

    CONSTRAINT "tool_call_progress_pkey" PRIMARY KEY ("callId")
);

-- AddForeignKey
ALTER TABLE "tool_call_progress" ADD CONSTRAINT "tool_call_progress_callId_fkey" FOREIGN KEY ("callId") REFERENCES "tool_call"("id") ON DELETE CASCADE ON UPDATE CASCADE;
