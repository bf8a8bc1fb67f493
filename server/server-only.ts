/**
 * What `import "server-only"` resolves to outside Next.js (tsx scripts, vitest, tsc: tsconfig's
 * paths and vitest.config map it here): nothing. Inside Next the name is the guard: its compiler
 * refuses the import in a client component's graph and resolves it to an empty module on the
 * server, so the `server-only` package itself is never loaded (docs/decisions/0098).
 */
export {};
