/**
 * The installation secret: signs sessions and derives the key that encrypts Source
 * connection headers. From QM_SECRET, or generated once into the data folder so the
 * embedded quick start needs no setup. Several instances on one PostgreSQL server
 * must share QM_SECRET.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "@/env";

let cached: string | undefined;

export function installationSecret(): string {
  if (cached) return cached;
  if (env.QM_SECRET) {
    cached = env.QM_SECRET;
    return cached;
  }
  const file = path.resolve(/*turbopackIgnore: true*/ env.QM_DATA_DIR, "secret");
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch (error) {
      // Another process created it first; use theirs.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  chmodSync(file, 0o600);
  cached = readFileSync(file, "utf8").trim();
  return cached;
}
