/**
 * npm run bench:tools — only the tool-selection benchmarks (bench/tool-selection.ts), on the
 * embedded database and (when reachable) PostgreSQL; the same rows npm run bench prints.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "qm-bench-tools-"));
Object.assign(process.env, {
  NODE_ENV: "test",
  LOG_LEVEL: "silent",
  QM_DATA_DIR: dataDir,
  QM_DEMO: "0",
  QM_SECRET: "bench-secret-bench-secret-bench-secret-01",
});
const { SYSTEM } = await import("@/server/actor");
const { installDatabase, closeDatabase, getDb } = await import("@/server/db");
const { openDatabase } = await import("@/server/db/open");
const { applyMigrations } = await import("@/server/db/schema-engine");
const { assignSource, createIdentity } = await import("@/server/domain/identities/identities");
const { referenceTool } = await import("@/server/domain/identities/reference-tools");
const { createToken } = await import("@/server/domain/identities/tokens");
const { createToolHost } = await import("@/server/domain/sources/sources");
const { authenticateToolHost, registerTools } = await import("@/server/domain/sources/tool-hosts");
const { handleMcpPost } = await import("@/server/mcp/handler");
const { findToolsLatency, rpcAnswer, toolSelectionSuite } = await import("./tool-selection");

const PG_URL = process.env.QM_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const which = process.argv[2] ?? "both";

/** An identity holding 15,000 small Tools (as bench/run.ts makes it), and find_tools at /mcp for it. */
async function findToolsAt15k() {
  const db = await getDb();
  const small = { ...referenceTool("small"), description: "Read one record by id and return its fields and owner." };
  const identity = await createIdentity(SYSTEM, { name: "bench-15k" });
  for (let h = 0; h < 4; h++) {
    const { hostToken } = await createToolHost(SYSTEM, { name: `bench-host-${h}` });
    const host = await authenticateToolHost(hostToken);
    await registerTools(host!, { tools: Array.from({ length: 3750 }, (_, i) => ({ ...small, name: `s${h}_${i}` })) });
    const source = await db.source.findFirstOrThrow({ where: { name: `bench-host-${h}` } });
    await assignSource(SYSTEM, { identityId: identity.id, sourceId: source.id });
  }
  const { value: token } = await createToken(SYSTEM, { identityId: identity.id, name: "bench" });
  const call = async (query: string) => {
    const response = await handleMcpPost(
      new Request("http://127.0.0.1:3000/mcp", {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "find_tools", arguments: { query } },
        }),
      }),
    );
    const body = await rpcAnswer(response);
    if (!body.result?.structuredContent?.tools?.length)
      throw new Error(`find_tools found nothing: ${JSON.stringify(body)}`);
  };
  return findToolsLatency(call, 15_000);
}

async function on(kind: "embedded" | "postgresql") {
  let drop = async () => {};
  let url: string | undefined;
  if (kind === "postgresql") {
    const pg = (await import("pg")).default;
    const admin = new pg.Client({ connectionString: PG_URL });
    try {
      await admin.connect();
    } catch {
      console.log("postgresql not reachable; skipped");
      return;
    }
    const name = `qm_bench_tools_${Date.now()}`;
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(PG_URL);
    u.pathname = `/${name}`;
    url = u.toString();
    drop = async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const opened = await openDatabase(url ? { url } : { dataDir });
  await applyMigrations(opened.adapterFactory);
  installDatabase(opened);
  try {
    for (const row of [...(await findToolsAt15k()), ...(await toolSelectionSuite())])
      console.log(`${kind.padEnd(10)} ${row.name.padEnd(90)} ${row.value.padEnd(12)} ${row.goal} ${row.verdict}`);
  } finally {
    await closeDatabase();
    await drop();
  }
}

if (which !== "postgresql") await on("embedded");
if (which !== "embedded") await on("postgresql");
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
