
-- CreateTable
CREATE TABLE "memory_lexeme" (
    "scopeId" TEXT NOT NULL,
    "lexeme" TEXT NOT NULL,
    "df" INTEGER NOT NULL,

    CONSTRAINT "memory_lexeme_pkey" PRIMARY KEY ("scopeId","lexeme")
);

-- AddForeignKey
ALTER TABLE "memory_lexeme" ADD CONSTRAINT "memory_lexeme_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "scope"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Counts for the memories already stored.
INSERT INTO "memory_lexeme" ("scopeId", "lexeme", "df")
SELECT m."scopeId", l.lexeme, count(*)::int
  FROM "memory" m, unnest(tsvector_to_array(m."searchVector")) AS l(lexeme)
 WHERE m."erasedAt" IS NULL AND m."searchVector" IS NOT NULL
 GROUP BY m."scopeId", l.lexeme;
