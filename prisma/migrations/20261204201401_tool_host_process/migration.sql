-- CreateTable
CREATE TABLE "tool_host_process" (
    "sourceId" TEXT NOT NULL,
    "processId" TEXT NOT NULL,
    "lastSeenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "tool_host_process_pkey" PRIMARY KEY ("sourceId","processId")
);

-- AddForeignKey
ALTER TABLE "tool_host_process" ADD CONSTRAINT "tool_host_process_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "source"("id") ON DELETE CASCADE ON UPDATE CASCADE;
