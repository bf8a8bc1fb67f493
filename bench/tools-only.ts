/**
 * npm run bench:tools — only the tool-selection benchmarks (bench/tool-selection.ts), on the
 * embedded database and (when reachable) PostgreSQL; the same rows npm run bench prints.
 */
import { benchEnvironment, runOnDatabases } from "./on-databases";

const dataDir = benchEnvironment("tools");
const { SYSTEM } = await import("@/server/actor");
const { getDb } = await import("@/server/db");
const { assignSource, createIdentity } = await import("@/server/domain/identities/identities");
const { referenceTool } = await import("@/server/domain/identities/reference-tools");
const { createToken } = await import("@/server/domain/identities/tokens");
const { createToolHost } = await import("@/server/domain/sources/sources");
const { authenticateToolHost, registerTools } = await import("@/server/domain/sources/tool-hosts");
const { handleMcpPost } = await import("@/server/mcp/handler");
const { findToolsLatency, rpcAnswer, toolSelectionSuite } = await import("./tool-selection");

/** An identity holding 15,000 small Tools (as bench/run.ts makes it), and find_tools at /mcp for it. */
async function findToolsAt15k() {
  const db = await getDb();
  const small = { ...referenceTool("small"), description: "Read one record by id and return its fields and owner." };
  const identity = await createIdentity(SYSTEM, { name: "bench-15k" });
  // One of its Sources publishing one more Tool: the holdings change find_tools must not wait on.
  let republish: (run: number) => Promise<unknown> = async () => {};
  for (let h = 0; h < 4; h++) {
    const { hostToken } = await createToolHost(SYSTEM, { name: `bench-host-${h}` });
    const host = await authenticateToolHost(hostToken);
    const tools = Array.from({ length: 3750 }, (_, i) => ({ ...small, name: `s${h}_${i}` }));
    await registerTools(host!, { tools });
    if (h === 0) republish = (run) => registerTools(host!, { tools: [...tools, { ...small, name: `s0_new_${run}` }] });
    const source = await db.source.findFirstOrThrow({ where: { name: `bench-host-${h}` } });
    await assignSource(SYSTEM, { identityId: identity.id, sourceId: source.id });
  }
  const { value: token } = await createToken(SYSTEM, { identityId: identity.id, name: "bench" });
  const rpc = async (body: unknown) =>
    rpcAnswer(
      await handleMcpPost(
        new Request("http://127.0.0.1:3000/mcp", {
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...(body as object) }),
        }),
      ),
    );
  const call = async (query: string) => {
    const body = await rpc({ method: "tools/call", params: { name: "find_tools", arguments: { query } } });
    if (!body.result?.structuredContent?.tools?.length)
      throw new Error(`find_tools found nothing: ${JSON.stringify(body)}`);
  };
  const ping = async () => {
    const body = await rpc({ method: "ping" });
    if (!body.result) throw new Error(`ping failed: ${JSON.stringify(body)}`);
  };
  return findToolsLatency(call, 15_000, republish, ping);
}

await runOnDatabases({
  dataDir,
  label: "tools",
  suite: async () => [...(await findToolsAt15k()), ...(await toolSelectionSuite())],
  widths: [90, 12],
});
