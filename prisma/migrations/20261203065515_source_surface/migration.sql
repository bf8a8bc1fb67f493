-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateEnum
CREATE TYPE "SourceSurfaceKind" AS ENUM ('resource', 'template', 'prompt');

-- CreateEnum
CREATE TYPE "SourceSurfaceStatus" AS ENUM ('listed', 'truncated', 'not_offered', 'failed');

-- CreateTable
CREATE TABLE "source_surface_list" (
    "sourceId" TEXT NOT NULL,
    "kind" "SourceSurfaceKind" NOT NULL,
    "status" "SourceSurfaceStatus" NOT NULL,
    "checkId" TEXT NOT NULL,
    "listedAt" TIMESTAMP(3) NOT NULL,
    "pages" INTEGER NOT NULL DEFAULT 0,
    "items" INTEGER NOT NULL DEFAULT 0,
    "bytes" INTEGER NOT NULL DEFAULT 0,
    "failureCode" TEXT,
    "failureMessage" TEXT,

    CONSTRAINT "source_surface_list_pkey" PRIMARY KEY ("sourceId","kind")
);

-- CreateTable
CREATE TABLE "source_surface_item" (
    "id" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "kind" "SourceSurfaceKind" NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "title" TEXT,
    "uri" TEXT,
    "description" TEXT NOT NULL DEFAULT '',
    "mimeType" TEXT,
    "arguments" JSONB,
    "definition" TEXT NOT NULL,

    CONSTRAINT "source_surface_item_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "source_surface_item_sourceId_kind_position_idx" ON "source_surface_item"("sourceId", "kind", "position");

-- AddForeignKey
ALTER TABLE "source_surface_list" ADD CONSTRAINT "source_surface_list_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "source"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "source_surface_item" ADD CONSTRAINT "source_surface_item_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "source"("id") ON DELETE CASCADE ON UPDATE CASCADE;
