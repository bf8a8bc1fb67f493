/*
  Warnings:

  - You are about to drop the column `annotations` on the `tool` table. All the data in the column will be lost.
  - You are about to drop the column `inputSchema` on the `tool` table. All the data in the column will be lost.
  - You are about to drop the column `outputSchema` on the `tool` table. All the data in the column will be lost.

*/
-- DropIndex
DROP INDEX "tool_compatibility_idx";

-- DropIndex
DROP INDEX "tool_nativeName_idx";

-- DropIndex
DROP INDEX "tool_sourceId_modelFacingBytes_idx";

-- AlterTable
ALTER TABLE "tool" DROP COLUMN "annotations",
DROP COLUMN "inputSchema",
DROP COLUMN "outputSchema",
ALTER COLUMN "definition" SET DATA TYPE TEXT;
