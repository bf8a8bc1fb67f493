/**
 * Migrations through Prisma's WebAssembly schema engine.
 *
 * Prisma's CLI downloads a native schema engine before any `migrate` command, which
 * machines without outside network cannot do. The same engine ships on npm as
 * WebAssembly; driven here over a driver adapter it applies and creates standard
 * `prisma/migrations/<name>/migration.sql` folders, so `prisma migrate deploy` on a
 * machine that has the binary would see the same history.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import type * as Engine from "@prisma/schema-engine-wasm";
import { committedMigrationNames, MIGRATIONS_DIR } from "./migrations-dir";

const require = createRequire(import.meta.url);

export { MIGRATIONS_DIR };
export const SCHEMA_PATH = path.resolve(process.cwd(), "prisma/schema.prisma");

type EngineModule = typeof Engine;
let engineModule: Promise<EngineModule> | undefined;

// The package imports its .wasm as an ES module, which Node 22 only allows behind a
// flag; instantiating it by hand against its JS glue works everywhere.
function loadEngineModule(): Promise<EngineModule> {
  engineModule ??= (async () => {
    const pkgDir = path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg"));
    const glue = (await import(/* webpackIgnore: true */ path.join(pkgDir, "schema_engine_bg.js"))) as EngineModule & {
      __wbg_set_wasm(exports: WebAssembly.Exports): void;
    };
    const bytes = await readFile(path.join(pkgDir, "schema_engine_bg.wasm"));
    const { instance } = await WebAssembly.instantiate(bytes, {
      "./schema_engine_bg.js": glue as unknown as WebAssembly.ModuleImports,
    });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue;
  })();
  return engineModule;
}

export async function listMigrations(dir = MIGRATIONS_DIR): Promise<Engine.MigrationList> {
  const names = await committedMigrationNames(dir);
  const migrationDirectories: Engine.MigrationDirectory[] = [];
  for (const name of names) {
    const content = await readFile(path.join(dir, name, "migration.sql"), "utf8").then(
      (value) => ({ tag: "ok" as const, value }),
      (error: Error) => ({ tag: "error" as const, value: error.message }),
    );
    migrationDirectories.push({ path: name, migrationFile: { path: "migration.sql", content } });
  }
  const lockfile = await readFile(path.join(dir, "migration_lock.toml"), "utf8").catch(() => null);
  return {
    baseDir: dir,
    lockfile: { path: "migration_lock.toml", content: lockfile },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

const noFilter: Engine.SchemaFilter = { externalTables: [], externalEnums: [] };

async function withEngine<T>(
  factory: SqlMigrationAwareDriverAdapterFactory,
  datamodel: string | undefined,
  run: (engine: Engine.SchemaEngine) => Promise<T>,
): Promise<T> {
  const { SchemaEngine } = await loadEngineModule();
  const bound = bindMigrationAwareSqlAdapterFactory(factory);
  const engine = await SchemaEngine.new(
    { datamodels: datamodel ? [[SCHEMA_PATH, datamodel]] : undefined },
    () => {},
    bound,
  ).catch((error: unknown) => {
    throw driverError(bound, error);
  });
  try {
    return await run(engine);
  } catch (error) {
    throw driverError(bound, error);
  } finally {
    engine.free();
  }
}

// The engine reports a failed driver call by the id under which the adapter kept the
// original error; hand back that error, which names the SQL problem.
function driverError(
  bound: { errorRegistry: { consumeError(id: number): { error: unknown } | undefined } },
  error: unknown,
): unknown {
  const id = (error as { id?: unknown } | null)?.id;
  return (typeof id === "number" && bound.errorRegistry.consumeError(id)?.error) || error;
}

/** `migrate deploy`: applies every committed migration the database lacks, in name order. */
export async function applyMigrations(
  factory: SqlMigrationAwareDriverAdapterFactory,
  /** Another migrations folder (tests of an upgrade apply an older set first). */
  dir = MIGRATIONS_DIR,
): Promise<string[]> {
  const migrationsList = await listMigrations(dir);
  const out = await withEngine(factory, undefined, (engine) =>
    engine.applyMigrations({ migrationsList, filters: noFilter }),
  );
  return out.appliedMigrationNames;
}

/**
 * Writes the SQL that takes the committed migrations to the current schema.prisma.
 * Run against an empty embedded database (the migrations are applied first), so the
 * result never depends on whatever state a developer's own database is in.
 */
export async function createMigrationScript(
  factory: SqlMigrationAwareDriverAdapterFactory,
  name: string,
): Promise<{ directory: string; script: string } | null> {
  const datamodel = await readFile(SCHEMA_PATH, "utf8");
  await applyMigrations(factory);
  const migrationsList = await listMigrations();
  const out = await withEngine(factory, datamodel, async (engine) => {
    const diagnostic = await engine.devDiagnostic({ migrationsList, filters: noFilter });
    if (diagnostic.action.tag === "reset") throw new Error(`Cannot create a migration: ${diagnostic.action.reason}`);
    return engine.createMigration({
      draft: true,
      migrationName: name,
      migrationsList,
      schema: { files: [{ path: SCHEMA_PATH, content: datamodel }] },
      filters: noFilter,
    });
  });
  if (!out.migrationScript) return null;
  return { directory: out.generatedMigrationName, script: out.migrationScript };
}
