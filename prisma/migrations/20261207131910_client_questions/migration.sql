-- CreateTable
CREATE TABLE "client_question" (
    "id" TEXT NOT NULL,
    "identityId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "answer" TEXT,
    "answeredAt" TIMESTAMP(3),

    CONSTRAINT "client_question_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "client_question_expiresAt_idx" ON "client_question"("expiresAt");
