import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { sweepSilentHosts } from "@/server/domain/sources/tool-hosts";
import { handleCollectCalls, handleHeartbeat, handleRegistration } from "@/server/http/tool-host-api";
import { LIMITS } from "@/server/limits";
import { callerFor, makeUser } from "../helpers/actors";
import { snapshot } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { simpleTool } from "../helpers/mcp-servers";

withTestDatabase();

const BASE = "http://127.0.0.1:3000/api/v1/tool-hosts";

async function newHost(timeout = 60) {
  const api = callerFor((await makeUser("operator")).actor);
  const { source, hostToken } = await api.sources.createToolHost({
    name: `host-${Math.random().toString(36).slice(2, 8)}`,
    heartbeatTimeoutSeconds: timeout,
  });
  const register = async (body: unknown, raw?: string) => {
    const res = await handleRegistration(
      new Request(`${BASE}/registration`, {
        method: "PUT",
        headers: { authorization: `Bearer ${hostToken}`, "content-type": "application/json" },
        body: raw ?? JSON.stringify(body),
      }),
    );
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const beat = async () => {
    const res = await handleHeartbeat(
      new Request(`${BASE}/heartbeat`, { method: "POST", headers: { authorization: `Bearer ${hostToken}` } }),
    );
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { api, source, hostToken, register, beat };
}

describe("SDK Tool Host API", () => {
  it("registers a whole Tool list, with a reserved-name Tool kept but not offered", async () => {
    const { api, source, register } = await newHost();
    const res = await register({
      tools: [
        simpleTool("a"),
        simpleTool("b"),
        simpleTool("c", { inputSchema: { type: "object", properties: { __x: {} } } }),
      ],
    });
    expect(res).toEqual({
      status: 200,
      body: {
        status: "registered",
        sourceId: source.id,
        heartbeatTimeoutSeconds: expect.any(Number),
        tools: 3,
        added: 3,
        removed: 0,
        changed: 0,
        // The host learns which Tool no model is offered, and why, without the argument being named.
        incompatible: [{ tool: "c", state: "schema_unsupported", reason: expect.stringContaining('starts with "__"') }],
        // What this server accepts back: the codes a failed result may carry, the content block types.
        resultCodes: [
          "INVALID_ARGUMENTS",
          "TOOL_RESULT_MALFORMED",
          "TOOL_RESULT_TEXT_TOO_LONG",
          "TOOL_RESULT_NUL",
          "TOOL_RESULT_TOO_LARGE",
        ],
        resultContent: ["text", "image", "audio", "resource_link", "resource"],
        // …and that calls' progress may be reported, within these limits.
        progress: { messageChars: 500, intervalMs: 250, reportsPerRequest: 64 },
        // …and that a result submission may collect the next calls as well.
        collectWithResults: true,
      },
    });
    expect(JSON.stringify(res.body)).not.toContain("__x");
    const got = await api.sources.get({ id: source.id });
    expect(got).toMatchObject({ catalogState: "ok", toolCount: 3, compatibleToolCount: 2 });
    expect(got.lastHeartbeatAt).toBeInstanceOf(Date);
    const history = await api.sources.checks({ id: source.id });
    expect(history.items[0]).toMatchObject({ trigger: "registration", status: "succeeded", tools: 3 });
  });

  it("answers 401 with a JSON error for a missing or wrong token", async () => {
    const res = await handleRegistration(new Request(`${BASE}/registration`, { method: "PUT", body: "{}" }));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "UNAUTHENTICATED" });
    const wrong = await handleHeartbeat(
      new Request(`${BASE}/heartbeat`, { method: "POST", headers: { authorization: "Bearer qm_host_nope" } }),
    );
    expect(wrong.status).toBe(401);
  });

  it("refuses a body over 4 MiB with 413 REQUEST_BODY_TOO_LARGE and changes nothing", async () => {
    const { source, register } = await newHost();
    await register({ tools: [simpleTool("keep")] });
    const before = await snapshot(source.id);
    const limit = LIMITS.SDK_REGISTRATION_BODY_BYTES.value;
    const padded = JSON.stringify({ tools: [simpleTool("x")], pad: "p".repeat(limit) });
    const res = await register(null, padded);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: "REQUEST_BODY_TOO_LARGE", details: { limit } });
    expect(await snapshot(source.id)).toBe(before);
  });

  it("refuses more than 4,096 Tools with 422 TOO_MANY_TOOLS and changes nothing", async () => {
    const { source, register } = await newHost();
    await register({ tools: [simpleTool("keep")] });
    const before = await snapshot(source.id);
    const tools = Array.from({ length: 4097 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: "object" } }));
    const res = await register({ tools });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: "TOO_MANY_TOOLS", details: { measured: 4097, limit: 4096 } });
    expect(await snapshot(source.id)).toBe(before);
  });

  it("refuses an input schema over 16 KiB with 422 TOOL_SCHEMA_TOO_LARGE naming the Tool, and shows the refusal to operators", async () => {
    const { api, source, register } = await newHost();
    await register({ tools: [simpleTool("keep")] });
    const before = await snapshot(source.id);
    const big = { type: "object", properties: { q: { type: "string", description: "d".repeat(16 * 1024) } } };
    const res = await register({ tools: [simpleTool("small"), { name: "fat_tool", inputSchema: big }] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: "TOOL_SCHEMA_TOO_LARGE", details: { tool: "fat_tool", limit: 16384 } });
    expect(String(res.body.message)).toContain('"fat_tool"');
    expect(await snapshot(source.id)).toBe(before);
    const got = await api.sources.get({ id: source.id });
    expect(got.lastFailure?.code).toBe("TOOL_SCHEMA_TOO_LARGE");
    expect(got.toolCount).toBe(1);

    // Exactly 16 KiB is accepted.
    const { canonicalJson } = await import("@/server/domain/catalog/canonical");
    const fits = { type: "object", properties: { q: { type: "string", description: "" } } };
    const pad = 16 * 1024 - Buffer.byteLength(canonicalJson(fits));
    fits.properties.q.description = "d".repeat(pad);
    expect((await register({ tools: [{ name: "just_fits", inputSchema: fits }] })).status).toBe(200);
    expect((await api.sources.get({ id: source.id })).catalogState).toBe("ok");
  });

  it("withdraws a silent host's Tools and brings them back on its next heartbeat", async () => {
    const { api, source, register, beat } = await newHost(15);
    await register({ tools: [simpleTool("a"), simpleTool("b")] });
    const db = await getDb();

    expect(await sweepSilentHosts(new Date(Date.now() + 10_000))).toEqual([]);
    expect(await sweepSilentHosts(new Date(Date.now() + 16_000))).toEqual([source.id]);
    expect((await api.sources.get({ id: source.id })).catalogState).toBe("host_silent");
    const listed = await api.catalog.listTools({ sourceId: source.id });
    expect(listed.items.every((t) => t.withdrawn)).toBe(true);
    const withdrawn = await db.catalogChange.findMany({ where: { sourceId: source.id, kind: "withdrawn" } });
    expect(withdrawn.map((c) => c.nativeName).sort()).toEqual(["a", "b"]);
    // Sweeping again records nothing twice.
    expect(await sweepSilentHosts(new Date(Date.now() + 20_000))).toEqual([]);

    const res = await beat();
    expect(res).toMatchObject({ status: 200, body: { status: "ok", heartbeatTimeoutSeconds: 15 } });
    expect((await api.sources.get({ id: source.id })).catalogState).toBe("ok");
    expect(await db.catalogChange.count({ where: { sourceId: source.id, kind: "restored" } })).toBe(2);
  });

  it("refuses a collection's `max` outside 1–16 with 400 INVALID_INPUT naming the field", async () => {
    const { hostToken } = await newHost();
    const collect = async (query: string) => {
      const res = await handleCollectCalls(
        new Request(`${BASE}/calls/next?${query}`, {
          method: "POST",
          headers: { authorization: `Bearer ${hostToken}` },
        }),
      );
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    for (const max of ["0", "17", "2.5", "x"])
      expect(await collect(`wait=0&max=${max}`)).toMatchObject({
        status: 400,
        body: { code: "INVALID_INPUT", details: { field: "max" } },
      });
    expect(await collect("wait=0&max=16")).toEqual({ status: 200, body: { calls: [] } });
  });

  it("rotating the token locks out the old one", async () => {
    const { api, source, hostToken, register } = await newHost();
    const { hostToken: fresh } = await api.sources.rotateHostToken({ id: source.id });
    expect(fresh).not.toBe(hostToken);
    expect((await register({ tools: [] })).status).toBe(401);
  });

  it("accepts exactly 4,096 Tools in a body just under 4 MiB", async () => {
    const { api, source, register } = await newHost();
    const limit = LIMITS.SDK_REGISTRATION_BODY_BYTES.value;
    const tool = (i: number, pad: number) => ({
      name: `t${String(i).padStart(4, "0")}`,
      description: "d".repeat(pad),
      inputSchema: { type: "object" },
    });
    const bare = Buffer.byteLength(JSON.stringify({ tools: Array.from({ length: 4096 }, (_, i) => tool(i, 0)) }));
    const pad = Math.floor((limit - 200 - bare) / 4096);
    const body = JSON.stringify({ tools: Array.from({ length: 4096 }, (_, i) => tool(i, pad)) });
    expect(Buffer.byteLength(body)).toBeGreaterThan(limit - 4096 - 200);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(limit);
    const res = await register(null, body);
    expect(res).toMatchObject({ status: 200, body: { status: "registered", tools: 4096, added: 4096 } });
    expect((await api.sources.get({ id: source.id })).toolCount).toBe(4096);
  }, 60_000);

  it("brings a silent host's Tools back when it registers again", async () => {
    const { api, source, register } = await newHost(15);
    await register({ tools: [simpleTool("a"), simpleTool("b")] });
    // (Other tests' hosts may fall silent in the same sweep.)
    expect(await sweepSilentHosts(new Date(Date.now() + 16_000))).toContain(source.id);
    expect((await api.sources.get({ id: source.id })).catalogState).toBe("host_silent");
    expect((await register({ tools: [simpleTool("a"), simpleTool("c")] })).status).toBe(200);
    expect((await api.sources.get({ id: source.id })).catalogState).toBe("ok");
    const listed = await api.catalog.listTools({ sourceId: source.id });
    expect(listed.items.map((t) => [t.nativeName, t.withdrawn])).toEqual([
      ["a", false],
      ["c", false],
    ]);
  });

  it("refuses a paused host's registrations with 409 SOURCE_PAUSED, keeps its catalog, and still counts its heartbeats", async () => {
    const { api, source, register, beat } = await newHost(15);
    await register({ tools: [simpleTool("keep")] });
    const before = await snapshot(source.id);
    await api.sources.update({ id: source.id, paused: true });

    const refused = await register({ tools: [simpleTool("other")] });
    expect(refused).toMatchObject({ status: 409, body: { code: "SOURCE_PAUSED" } });
    expect(String(refused.body.message)).toContain("paused");
    expect(await snapshot(source.id)).toBe(before);
    // A paused host is alive: its heartbeats keep its Tools from being withdrawn.
    expect((await beat()).status).toBe(200);
    expect(await sweepSilentHosts(new Date(Date.now() + 10_000))).not.toContain(source.id);

    await api.sources.update({ id: source.id, paused: false });
    expect(await register({ tools: [simpleTool("other")] })).toMatchObject({ status: 200, body: { added: 1 } });
  });
});
