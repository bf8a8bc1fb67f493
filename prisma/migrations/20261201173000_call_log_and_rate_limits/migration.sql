-- CreateEnum
CREATE TYPE "CallOutcome" AS ENUM ('ok', 'is_error', 'failed');

-- CreateEnum
CREATE TYPE "RateLimitSubject" AS ENUM ('identity', 'tool');

-- CreateTable
CREATE TABLE "call_log" (
    "id" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "identityId" TEXT NOT NULL,
    "identityName" TEXT NOT NULL,
    "tokenId" TEXT,
    "toolName" TEXT NOT NULL,
    "builtIn" BOOLEAN NOT NULL DEFAULT false,
    "toolId" TEXT,
    "nativeName" TEXT,
    "sourceId" TEXT,
    "sourceName" TEXT,
    "outcome" "CallOutcome" NOT NULL,
    "failureCode" TEXT,
    "bytesIn" INTEGER NOT NULL,
    "bytesOut" INTEGER NOT NULL,
    "arguments" TEXT,
    "result" TEXT,
    "payloadExpiresAt" TIMESTAMP(3),

    CONSTRAINT "call_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "call_capture" (
    "identityId" TEXT NOT NULL,
    "retentionDays" INTEGER NOT NULL,
    "enabledAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "enabledBy" TEXT NOT NULL,

    CONSTRAINT "call_capture_pkey" PRIMARY KEY ("identityId")
);

-- CreateTable
CREATE TABLE "rate_limit" (
    "subjectType" "RateLimitSubject" NOT NULL,
    "subjectId" TEXT NOT NULL,
    "perMinute" INTEGER,
    "concurrent" INTEGER,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT NOT NULL,

    CONSTRAINT "rate_limit_pkey" PRIMARY KEY ("subjectType","subjectId")
);

-- CreateTable
CREATE TABLE "rate_window" (
    "key" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "rate_window_pkey" PRIMARY KEY ("key","windowStart")
);

-- CreateTable
CREATE TABLE "call_lease" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "call_lease_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "call_log_startedAt_idx" ON "call_log"("startedAt");

-- CreateIndex
CREATE INDEX "call_log_identityId_startedAt_idx" ON "call_log"("identityId", "startedAt");

-- CreateIndex
CREATE INDEX "call_log_sourceId_startedAt_idx" ON "call_log"("sourceId", "startedAt");

-- CreateIndex
CREATE INDEX "call_log_toolId_startedAt_idx" ON "call_log"("toolId", "startedAt");

-- CreateIndex
CREATE INDEX "call_log_payloadExpiresAt_idx" ON "call_log"("payloadExpiresAt");

-- CreateIndex
CREATE INDEX "rate_window_windowStart_idx" ON "rate_window"("windowStart");

-- CreateIndex
CREATE INDEX "call_lease_key_expiresAt_idx" ON "call_lease"("key", "expiresAt");
