/**
 * Demo data for `npm start`: people with each role and a real Source, so every page
 * of a new installation has something true to show. Runs once, on a new database.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "@/env";
import { SYSTEM } from "../../actor";
import { getDb } from "../../db";
import { createApiKey } from "../api-keys/api-keys";
import { readSetting, writeSetting } from "../system/settings";
import { createUser, ensureAdmin } from "../users/users";

export const DEMO_ADMIN_EMAIL = "admin@quartermaster.demo";

export interface DemoCredentials {
  email: string;
  password: string;
}

/** The demo admin's password is generated per installation and kept beside the data. */
function demoCredentials(): DemoCredentials {
  const file = path.resolve(/*turbopackIgnore: true*/ env.QM_DATA_DIR, "demo-admin.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as DemoCredentials;
  const creds = { email: DEMO_ADMIN_EMAIL, password: randomBytes(12).toString("base64url") };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(creds), { mode: 0o600 });
  return creds;
}

/**
 * Seeds a new database; on later starts returns the demo sign-in if this installation
 * is a demo, and null for a database that was never one (demo data never lands in an
 * installation that already holds real data).
 */
export async function seedDemo({ firstRun }: { firstRun: boolean }): Promise<DemoCredentials | null> {
  if (await readSetting<boolean>("demo.seeded")) return demoCredentials();
  if (!firstRun) return null;
  const creds = demoCredentials();
  await ensureAdmin({ email: creds.email, password: creds.password, name: "Demo Admin" });
  const db = await getDb();
  const people = [
    { email: "olivia.operator@quartermaster.demo", name: "Olivia Operator", role: "operator" as const },
    { email: "carl.curator@quartermaster.demo", name: "Carl Curator", role: "curator" as const },
    { email: "vera.viewer@quartermaster.demo", name: "Vera Viewer", role: "viewer" as const },
  ];
  for (const person of people) {
    if (await db.user.findUnique({ where: { email: person.email } })) continue;
    await createUser(SYSTEM, { ...person, password: randomBytes(18).toString("base64url") });
  }
  await createApiKey(SYSTEM, { name: "CI pipeline (demo)", role: "operator" });
  await writeSetting("demo.seeded", true);
  return creds;
}
