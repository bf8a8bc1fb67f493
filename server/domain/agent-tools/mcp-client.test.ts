import { describe, expect, it } from "vitest";
import { clientOfMessage } from "./mcp-client";

const META = "io.modelcontextprotocol/clientInfo";

describe("the MCP client a request names", () => {
  it("reads 2026-07-28's per-request _meta, and a 2025-era initialize's clientInfo as an introduction", () => {
    expect(
      clientOfMessage({ method: "tools/call", params: { _meta: { [META]: { name: "desk", version: "2.0" } } } }),
    ).toEqual({ client: { name: "desk", version: "2.0" }, introduces: false });
    expect(clientOfMessage({ method: "initialize", params: { clientInfo: { name: "desk", version: "1.0" } } })).toEqual(
      { client: { name: "desk", version: "1.0" }, introduces: true },
    );
    // A 2025-era call after initialize names nobody: its token's introduction will.
    expect(clientOfMessage({ method: "tools/call", params: { name: "search" } })).toEqual({
      client: null,
      introduces: false,
    });
  });

  it("takes odd or hostile names without failing the request: cut, made storable, or ignored", () => {
    const long = clientOfMessage({ method: "initialize", params: { clientInfo: { name: `${"x".repeat(199)}😀` } } });
    // Cut at 200 UTF-16 units through the emoji: the lone half is replaced, not stored.
    expect(long.client?.name).toHaveLength(200);
    expect(long.client?.name.endsWith("\uFFFD")).toBe(true);
    expect(long.client?.version).toBe("");
    expect(
      clientOfMessage({ method: "initialize", params: { clientInfo: { name: " a\u0000b ", version: 3 } } }).client,
    ).toEqual({ name: "a\uFFFDb", version: "" });
    for (const body of [
      null,
      [],
      [{ method: "initialize", params: { clientInfo: { name: "batch" } } }],
      { method: "initialize", params: { clientInfo: { name: "   " } } },
      { method: "initialize", params: { clientInfo: "desk" } },
      { method: "tools/call", params: { _meta: { [META]: { version: "1" } } } },
    ])
      expect(clientOfMessage(body).client, JSON.stringify(body)).toBeNull();
  });
});
