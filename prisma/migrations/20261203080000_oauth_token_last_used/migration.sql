-- AlterTable
ALTER TABLE "oauth_access_token" ADD COLUMN     "lastUsedAt" TIMESTAMP(3);
