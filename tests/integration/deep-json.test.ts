/**
 * JSON nested thousands of levels deep, wherever untrusted JSON enters: serializing it
 * recurses, so each entry point measures depth first (iteratively) and answers with a
 * 4xx or the failure code that names the limit — never a 500, never the runtime's
 * "Maximum call stack size exceeded".
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { handleAuthRequest } from "@/server/auth/handler";
import { createApiKey } from "@/server/domain/api-keys/api-keys";
import { createToolHost } from "@/server/domain/sources/sources";
import { handleCallResults, handleRegistration } from "@/server/http/tool-host-api";
import { handleTrpcRequest } from "@/server/trpc/handler";
import { ORIGIN } from "../helpers/actors";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { agentFor } from "../helpers/mcp-agent";
import { mcpRoute } from "../helpers/mcp-route";
import { postMcpText } from "../helpers/mcp-rpc";
import { serveHandler } from "../helpers/web-handler";

withTestDatabase();
const route = mcpRoute();

const closers: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/** `{"a":{"a":…1…}}`, `levels` deep, as text (building it as a value and stringifying would itself overflow). */
const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
const deepArray = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

/**
 * An MCP server whose one Tool's schema, and whose Tool Results, are whatever JSON text it
 * is given: a conforming SDK server could not even send them.
 */
async function rawMcpServer(options: { toolText: string; resultText?: string }) {
  const server = http.createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    if (req.method !== "POST") return void res.writeHead(200).end();
    const message = JSON.parse(text) as { id?: number | string; method: string };
    const id = JSON.stringify(message.id);
    if (message.id === undefined) return void res.writeHead(202).end();
    const answer = (result: string) =>
      res.writeHead(200, { "content-type": "application/json" }).end(`{"jsonrpc":"2.0","id":${id},"result":${result}}`);
    if (message.method === "initialize")
      return answer(
        '{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"deep","version":"1"}}',
      );
    if (message.method === "tools/list") return answer(`{"tools":[${options.toolText}]}`);
    if (message.method === "tools/call") return answer(options.resultText ?? '{"content":[]}');
    // As a 2025-06-18 server answers a method it does not know (server/discover among them).
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(`{"jsonrpc":"2.0","id":${id},"error":{"code":-32601,"message":"Method not found"}}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => void server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/** A JSON-RPC answer from /mcp, sent as JSON or as one event of a stream (tools/call streams). */
function rpcAnswer(text: string): { result: { isError?: boolean; structuredContent: { error: unknown } } } {
  const data = text.startsWith("{")
    ? text
    : text
        .split("\n")
        .find((line) => line.startsWith("data: "))
        ?.slice(6);
  return JSON.parse(data ?? "null");
}

const SIMPLE_TOOL = '{"name":"lookup","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}';

describe("deeply nested JSON", () => {
  it("in an SDK Tool Host registration: 422 naming the limit, not a 500", async () => {
    const { hostToken } = await createToolHost(SYSTEM, { name: "deep host" });
    const api = await serveHandler({ POST: handleRegistration }, "/api/v1/tool-hosts/registration");
    closers.push(api.close);
    const register = (tool: string) =>
      fetch(api.url, {
        method: "POST",
        headers: { authorization: `Bearer ${hostToken}`, "content-type": "application/json" },
        body: `{"tools":[${tool}]}`,
      });
    const inSchema = await register(`{"name":"deep","inputSchema":${deepObject(20_000)}}`);
    expect(inSchema.status).toBe(422);
    expect(await inSchema.json()).toMatchObject({ code: "TOOL_SCHEMA_TOO_DEEP", details: { limit: 64 } });
    const inAnnotations = await register(
      `{"name":"deep","inputSchema":{"type":"object"},"annotations":${deepArray(20_000)}}`,
    );
    expect(inAnnotations.status).toBe(422);
    expect((await inAnnotations.json()).code).toBe("TOOL_DEFINITION_TOO_DEEP");
  });

  it("in an MCP server's Tool: the check fails as TOOL_SCHEMA_TOO_DEEP, not as a transport error", async () => {
    const url = await rawMcpServer({ toolText: `{"name":"deep","inputSchema":${deepObject(12_000)}}` });
    const { api, source } = await connectionTo(url);
    const outcome = await api.sources.checkNow({ id: source.id });
    expect(outcome.failure).toMatchObject({ code: "TOOL_SCHEMA_TOO_DEEP", details: { tool: "deep", limit: 64 } });
  });

  it("in a Tool Result or in an agent's arguments: the call fails with a reason the model can read", async () => {
    const url = await rawMcpServer({
      toolText: SIMPLE_TOOL,
      resultText: `{"content":[{"type":"text","text":"hi"}],"structuredContent":${deepObject(20_000)}}`,
    });
    const { api, source } = await connectionTo(url, { name: "deep results" });
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
    const { token } = await agentFor([source.id]);
    const call = (args: string) =>
      postMcpText(
        route.url,
        token,
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup","arguments":${args}}}`,
      );

    const deepResult = await call('{"q":"x"}');
    expect(deepResult.status).toBe(200);
    const result = rpcAnswer(await deepResult.text()).result;
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error).toMatchObject({ code: "TOOL_RESULT_TOO_DEEP", limit: 128 });

    const deepArgs = await call(`{"q":${deepObject(20_000)}}`);
    const text = await deepArgs.text();
    expect(deepArgs.status).toBe(200);
    expect(text).toContain("arguments: nested more than 128 levels deep");
    expect(text).not.toContain("Maximum call stack");
  });

  it("in tRPC input, a sign-in or a Tool Result submission: a 4xx that says what to send", async () => {
    const { key } = await createApiKey(SYSTEM, { name: "deep json", role: "admin" });
    const trpc = (path: string, init: RequestInit = {}) =>
      handleTrpcRequest(
        new Request(`${ORIGIN}/api/trpc/${path}`, {
          ...init,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        }),
      );
    const deep = await trpc("sources.update", { method: "POST", body: `{"json":${deepObject(20_000)}}` });
    expect(deep.status).toBe(400);
    expect((await deep.json()).error.json).toMatchObject({
      message: expect.stringContaining("input: nested more than 128 levels deep"),
      data: { domainCode: "INVALID_INPUT" },
    });
    // A null input used to answer with superjson's own words ("Cannot destructure property 'json' …").
    const nullInput = await trpc(`sources.get?input=${encodeURIComponent("null")}`);
    expect(nullInput.status).toBe(400);
    const nullBody = JSON.stringify(await nullInput.json());
    expect(nullBody).toContain('send it as superjson, {\\"json\\": <input>}');
    expect(nullBody).not.toMatch(/destructure|undefined|null is not/i);
    const garbage = await trpc("sources.update", { method: "POST", body: "{not json" });
    expect(garbage.status).toBe(400);
    expect((await garbage.json()).error.json.message).toBe("The request body is not valid JSON.");

    const signIn = await handleAuthRequest(
      new Request(`${ORIGIN}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: ORIGIN },
        body: `{"email":"a@example.test","password":${deepObject(20_000)}}`,
      }),
    );
    expect(signIn.status).toBeGreaterThanOrEqual(400);
    expect(signIn.status).toBeLessThan(500);

    const { hostToken } = await createToolHost(SYSTEM, { name: "deep results host" });
    const submitted = await handleCallResults(
      new Request(`${ORIGIN}/api/v1/tool-hosts/calls/results`, {
        method: "POST",
        headers: { authorization: `Bearer ${hostToken}`, "content-type": "application/json" },
        body: `{"results":[{"id":"x","output":${deepArray(20_000)}}]}`,
      }),
    );
    expect(submitted.status).toBe(400);
    expect((await submitted.json()).code).toBe("INVALID_INPUT");
  });
});
