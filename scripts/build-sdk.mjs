// Builds the Tool Host SDK (sdk/ → sdk/dist) on install, so the demo's SDK Tool Host and the
// tests import the package as its users will. An install without dev dependencies has no
// TypeScript compiler: the product itself does not need the build, so it is skipped then.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
let tsc;
try {
  tsc = require.resolve("typescript/bin/tsc");
} catch {
  console.warn(
    "Skipping the Tool Host SDK build (sdk/): TypeScript is not installed (an install without dev dependencies).",
  );
  process.exit(0);
}
const result = spawnSync(process.execPath, [tsc, "-p", "sdk/tsconfig.build.json"], { stdio: "inherit" });
process.exit(result.status ?? 1);
