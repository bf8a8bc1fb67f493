import { rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/server/db/open";
import { applyMigrations } from "@/server/db/schema-engine";
import { adminQuery, databaseUrl, randomName, usePostgres } from "./template";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  if (usePostgres) {
    const name = randomName("qm_template");
    await adminQuery(`CREATE DATABASE ${name}`);
    const opened = await openDatabase({ url: databaseUrl(name) });
    await applyMigrations(opened.adapterFactory);
    await opened.close();
    // A pooled connection may outlive close() briefly; a template must have none.
    await adminQuery(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`,
    );
    project.provide("postgresTemplate", name);
    project.provide("pgliteTemplate", "");
    return async () => {
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    };
  }
  const opened = await openDatabase({ dataDir: "memory://" });
  await applyMigrations(opened.adapterFactory);
  if (!opened.pglite) throw new Error("openDatabase did not expose its PGlite instance");
  const dump = await opened.pglite.dumpDataDir("none");
  const file = path.join(os.tmpdir(), `${randomName("qm-template")}.tar`);
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await opened.close();
  project.provide("pgliteTemplate", file);
  project.provide("postgresTemplate", "");
  return async () => {
    await rm(file, { force: true });
  };
}
