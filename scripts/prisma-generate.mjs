// `prisma generate` needs no schema engine, but the CLI insists on finding one and
// would try to download it (impossible here); any existing file satisfies the check.
import { spawnSync } from "node:child_process";

const result = spawnSync("npx", ["prisma", "generate"], {
  stdio: "inherit",
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? "/bin/false",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
  },
});
process.exit(result.status ?? 1);
