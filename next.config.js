// @ts-check
import { createJiti } from "jiti";

// Validate the environment before anything else: a bad value fails `next build` and start.
await createJiti(import.meta.url).import("./env.ts");

/** @type {import("next").NextConfig} */
const config = {
  poweredByHeader: false,
  reactStrictMode: true,
  // Loaded by Node at run time rather than bundled: they ship WebAssembly or native
  // parts that must be opened from their own package folders.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-pgvector",
    "pglite-prisma-adapter",
    "pino",
    "pg",
  ],
  typescript: { ignoreBuildErrors: true }, // `npm run typecheck` is the gate; the build need not repeat it
};

export default config;
