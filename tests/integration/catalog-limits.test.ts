/**
 * Each catalog-check limit, just under (the check passes) and just over (it fails as a
 * whole, naming the limit and the measured value, and the previous catalog stays
 * exactly as it was).
 */
import { afterAll, describe, expect, it } from "vitest";
import { LIMITS } from "@/server/limits";
import { connectionTo, snapshot } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { paged, type RawAnswer, type RunningServer, simpleTool, startRawServer } from "../helpers/mcp-servers";
import { schemaOfDepth, schemaOfNodes, toolOfBytes } from "../helpers/sized-tools";

withTestDatabase();

const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/**
 * Serves `under` first, checks (must pass), then serves `over` and checks again (must
 * fail with `code`); returns the failed outcome after proving the catalog is unchanged.
 */
async function underThenOver(
  under: (call: { page: number; cursor?: string }) => RawAnswer,
  over: (call: { page: number; cursor?: string }) => RawAnswer,
  code: string,
) {
  let serve = under;
  const server = await startRawServer((call) => serve(call));
  servers.push(server);
  const { api, source } = await connectionTo(server.url);
  const passed = await api.sources.checkNow({ id: source.id });
  expect(passed.failure ?? null).toBeNull();
  expect(passed.status).toBe("succeeded");
  const before = await snapshot(source.id);
  serve = over;
  const failed = await api.sources.checkNow({ id: source.id });
  expect(failed.status).toBe("failed");
  expect(failed.failure?.code).toBe(code);
  expect(await snapshot(source.id)).toBe(before);
  const state = await api.sources.get({ id: source.id });
  expect(state.catalogState).toBe("failing");
  expect(state.lastFailure?.code).toBe(code);
  return { passed, failed };
}

const many = (n: number, prefix = "t") => Array.from({ length: n }, (_, i) => simpleTool(`${prefix}${i}`));

describe("catalog check limits", () => {
  it(`${LIMITS.CHECK_PAGES.value} pages pass; one more fails with CATALOG_TOO_MANY_PAGES`, async () => {
    const { passed, failed } = await underThenOver(paged(many(128), 1), paged(many(129), 1), "CATALOG_TOO_MANY_PAGES");
    expect(passed.pages).toBe(128);
    expect(failed.failure?.details).toMatchObject({ limit: 128 });
    expect(failed.failure?.message).toContain("more than 128 pages");
  });

  it(`${LIMITS.CHECK_TOOLS.value} Tools pass; 4,097 fail with CATALOG_TOO_MANY_TOOLS`, async () => {
    const { passed, failed } = await underThenOver(
      paged(many(4096), 100),
      paged(many(4097), 100),
      "CATALOG_TOO_MANY_TOOLS",
    );
    expect(passed.tools).toBe(4096);
    expect(failed.failure?.details).toMatchObject({ limit: 4096, page: 41 });
  }, 120_000);

  it("4 MiB of definitions pass; one byte more fails with CATALOG_TOO_LARGE", async () => {
    const limit = LIMITS.CHECK_DEFINITION_BYTES.value;
    const per = 262_144; // 16 × 256 KiB = exactly 4 MiB
    const exact = Array.from({ length: 16 }, (_, i) => toolOfBytes(`big${i}`, per));
    const overBy1 = [...exact.slice(0, 15), toolOfBytes("big15", per + 1)];
    const { passed, failed } = await underThenOver(paged(exact, 2), paged(overBy1, 2), "CATALOG_TOO_LARGE");
    expect(passed.bytes).toBe(limit);
    expect(failed.failure?.details).toMatchObject({ measured: limit + 1, limit });
  }, 60_000);

  it("a 512 KiB Tool passes; one byte more fails with TOOL_DEFINITION_TOO_LARGE naming the Tool", async () => {
    const limit = LIMITS.TOOL_DEFINITION_BYTES.value;
    const { failed } = await underThenOver(
      paged([toolOfBytes("huge", limit)], 1),
      paged([toolOfBytes("huge", limit + 1)], 1),
      "TOOL_DEFINITION_TOO_LARGE",
    );
    expect(failed.failure?.details).toMatchObject({ tool: "huge", measured: limit + 1, limit });
  });

  it("native names of 128 characters pass; 129 or none fail with TOOL_NAME_INVALID", async () => {
    const { failed } = await underThenOver(
      paged([simpleTool("n".repeat(128))], 1),
      paged([simpleTool("n".repeat(129))], 1),
      "TOOL_NAME_INVALID",
    );
    expect(failed.failure?.details).toMatchObject({ measured: 129, limit: 128 });
    await underThenOver(paged([simpleTool("ok")], 1), paged([simpleTool("")], 1), "TOOL_NAME_INVALID");
  });

  it("descriptions of 4,096 characters pass; 4,097 fail with TOOL_DESCRIPTION_TOO_LONG", async () => {
    const { failed } = await underThenOver(
      paged([simpleTool("d", { description: "é".repeat(4096) })], 1),
      paged([simpleTool("d", { description: "é".repeat(4097) })], 1),
      "TOOL_DESCRIPTION_TOO_LONG",
    );
    expect(failed.failure?.details).toMatchObject({ tool: "d", measured: 4097, limit: 4096 });
  });

  it("schemas 64 levels deep pass; 65 fail with TOOL_SCHEMA_TOO_DEEP (input and output together)", async () => {
    const { failed } = await underThenOver(
      paged([simpleTool("deep", { inputSchema: schemaOfDepth(64) })], 1),
      paged([simpleTool("deep", { inputSchema: { type: "object" }, outputSchema: schemaOfDepth(65) })], 1),
      "TOOL_SCHEMA_TOO_DEEP",
    );
    expect(failed.failure?.details).toMatchObject({ tool: "deep", limit: 64, measured: 65 });
  });

  it("100,000 schema nodes across input and output pass; 100,001 fail with TOOL_SCHEMA_TOO_LARGE", async () => {
    const { failed } = await underThenOver(
      paged([simpleTool("wide", { inputSchema: schemaOfNodes(60_000), outputSchema: schemaOfNodes(40_000) })], 1),
      paged([simpleTool("wide", { inputSchema: schemaOfNodes(60_000), outputSchema: schemaOfNodes(40_001) })], 1),
      "TOOL_SCHEMA_TOO_LARGE",
    );
    expect(failed.failure?.details).toMatchObject({ tool: "wide", limit: 100_000, measured: 100_001 });
  });

  it("a 4 MiB response passes; a larger one fails with CATALOG_RESPONSE_TOO_LARGE", async () => {
    const limit = LIMITS.REMOTE_RESPONSE_BYTES.value;
    // The JSON-RPC envelope around `result` is ~40 bytes; pad outside the Tools so only the response limit applies.
    const page = (pad: number): RawAnswer => ({
      result: { tools: [simpleTool("one")], _meta: { pad: "p".repeat(pad) } },
    });
    const { failed } = await underThenOver(
      () => page(limit - 1000),
      () => page(limit),
      "CATALOG_RESPONSE_TOO_LARGE",
    );
    expect(failed.failure?.details).toMatchObject({ limit });
    expect(Number(failed.failure?.details.measured)).toBeGreaterThan(limit);
  });

  it("a compressed answer is read, and one that inflates past 4 MiB fails though it is small on the wire", async () => {
    const limit = LIMITS.REMOTE_RESPONSE_BYTES.value;
    const page = (pad: number): RawAnswer => ({
      result: { tools: [simpleTool("one")], _meta: { pad: "p".repeat(pad) } },
      gzip: true,
    });
    // 4 MiB of padding gzips to a few KiB: counted on the wire, it would pass.
    const { failed } = await underThenOver(
      () => page(limit - 1000),
      () => page(limit),
      "CATALOG_RESPONSE_TOO_LARGE",
    );
    expect(Number(failed.failure?.details.measured)).toBeGreaterThan(limit);
  });
});
