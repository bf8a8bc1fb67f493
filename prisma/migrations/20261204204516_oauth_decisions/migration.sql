-- The identity chosen for an approval now lives only in the approving request (server/auth/oauth.ts).
-- session."oauthIdentityId" and "oauthIdentityChosenAt" stay for one release: an older instance
-- running beside this one during a rolling upgrade still writes them.

-- CreateTable
CREATE TABLE "oauth_decision" (
    "key" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_decision_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "oauth_decision_expiresAt_idx" ON "oauth_decision"("expiresAt");
