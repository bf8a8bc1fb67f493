/**
 * Input schemas as real servers publish them (Pydantic's Optional as anyOf with null, zod 3
 * via zod-to-json-schema's draft-07 with definitions, type arrays, OpenAPI's nullable,
 * formats no validator knows, draft-04's boolean exclusiveMinimum), through the catalog's
 * compatibility check and /mcp: each is Compatible, listed as published, and called with
 * its arguments checked as the schema means them.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { agentFor, callTool } from "../helpers/mcp-agent";
import { mcpRoute } from "../helpers/mcp-route";
import { startSdkServer, type ToolDef } from "../helpers/mcp-servers";

withTestDatabase();
const route = mcpRoute();

const SHAPES: ToolDef[] = [
  {
    // FastMCP / Pydantic: Optional[str] = None, a model in $defs, Optional of a $ref.
    name: "pydantic_search",
    description: "Pydantic-shaped arguments.",
    inputSchema: {
      type: "object",
      $defs: {
        Window: {
          type: "object",
          properties: { days: { type: "integer", minimum: 1 } },
          required: ["days"],
          title: "Window",
        },
      },
      properties: {
        query: { type: "string", title: "Query" },
        owner: { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "Owner" },
        window: { anyOf: [{ $ref: "#/$defs/Window" }, { type: "null" }], default: null },
      },
      required: ["query"],
      title: "pydantic_searchArguments",
    },
  },
  {
    // The 1.x TypeScript SDK (zod-to-json-schema): draft-07, definitions, additionalProperties false.
    name: "draft07_tool",
    description: "Draft-07 arguments.",
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      definitions: { Tag: { type: "string", enum: ["a", "b"] } },
      properties: {
        tags: { type: "array", items: { $ref: "#/definitions/Tag" } },
        limit: { type: ["integer", "null"], maximum: 10 },
      },
      additionalProperties: false,
    },
  },
  {
    // OpenAPI-minded servers: nullable, a format ajv does not know, draft-04's boolean bound.
    name: "openapi_tool",
    description: "OpenAPI-shaped arguments.",
    inputSchema: {
      type: "object",
      properties: {
        note: { type: "string", nullable: true },
        path: { type: "string", format: "file-path" },
        ratio: { type: "number", minimum: 0, exclusiveMinimum: true },
      },
    },
  },
];

const received: Record<string, unknown>[] = [];
async function shapesSource() {
  const server = await startSdkServer({
    catalog: () => SHAPES,
    onCall: (name, args) => {
      received.push({ name, args });
      return { content: [{ type: "text", text: `ran ${name}` }] };
    },
  });
  route.closers.push(server.close);
  const { api, source } = await connectionTo(server.url, { name: "shapes" });
  expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
  return { api, source };
}

describe("real-world input schema shapes", () => {
  it("are Compatible, listed as published to the 1.x SDK client, and called with their arguments checked as meant", async () => {
    const { api, source } = await shapesSource();
    const tools = await api.catalog.listTools({ sourceId: source.id });
    expect(Object.fromEntries(tools.items.map((t) => [t.nativeName, t.compatibility.state]))).toEqual({
      draft07_tool: "compatible",
      openapi_tool: "compatible",
      pydantic_search: "compatible",
    });
    const { token } = await agentFor([source.id]);

    // The 1.x SDK client parses every listed Tool (zod): each arrives with its schema intact.
    const client = new ClientV1({ name: "v1", version: "1" });
    await client.connect(
      new TransportV1(new URL(route.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    try {
      const listed = (await client.listTools()).tools;
      for (const shape of SHAPES)
        expect(listed.find((t) => t.name.endsWith(shape.name))?.inputSchema, shape.name).toEqual(shape.inputSchema);
      const name = (native: string) => listed.find((t) => t.name.endsWith(native))?.name as string;

      // null where the schema admits it reaches the Source as null.
      const ok = await client.callTool({
        name: name("pydantic_search"),
        arguments: { query: "q", owner: null, window: { days: 3 } },
      });
      expect(ok.isError).toBeFalsy();
      expect(received.at(-1)).toEqual({
        name: "pydantic_search",
        args: { query: "q", owner: null, window: { days: 3 } },
      });
      expect(
        (await client.callTool({ name: name("draft07_tool"), arguments: { tags: ["a"], limit: null } })).isError,
      ).toBeFalsy();
      expect(
        (await client.callTool({ name: name("openapi_tool"), arguments: { note: null, path: "x", ratio: 0.5 } }))
          .isError,
      ).toBeFalsy();
    } finally {
      await client.close();
    }

    // What the schema refuses is refused before the Source sees it, naming the argument.
    const before = received.length;
    const refused = async (native: string, args: unknown) => {
      const all = (await api.catalog.listTools({ sourceId: source.id })).items;
      const answer = await callTool(
        route.url,
        token,
        all.find((t) => t.nativeName === native)?.modelFacingName as string,
        args,
      );
      expect(answer.result?.isError, native).toBe(true);
      return answer.result?.content[0]?.text ?? "";
    };
    expect(await refused("pydantic_search", { query: "q", window: { days: 0 } })).toMatch(/^INVALID_ARGUMENTS: window/);
    expect(await refused("pydantic_search", { query: "q", owner: 7 })).toMatch(/^INVALID_ARGUMENTS: owner/);
    expect(await refused("draft07_tool", { tags: ["c"] })).toMatch(/^INVALID_ARGUMENTS: tags\.0: must be one of/);
    expect(await refused("draft07_tool", { limit: 11 })).toMatch(/^INVALID_ARGUMENTS: limit/);
    expect(await refused("draft07_tool", { extra: 1 })).toContain("extra: is not an argument of this Tool");
    expect(await refused("openapi_tool", { note: 5 })).toMatch(/^INVALID_ARGUMENTS: note/);
    // draft-04's "minimum": 0 with "exclusiveMinimum": true: 0 itself is out.
    expect(await refused("openapi_tool", { ratio: 0 })).toMatch(/^INVALID_ARGUMENTS: ratio: must be > 0/);
    expect(received.length).toBe(before);
  });
});
