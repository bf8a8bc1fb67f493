import { defineConfig } from "prisma/config";

// Prisma's CLI is used only for `generate`; migrations go through scripts/db.ts
// (Prisma's WebAssembly schema engine), which needs no downloaded binary.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
