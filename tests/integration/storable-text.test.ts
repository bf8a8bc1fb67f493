/**
 * Text the database cannot store — a NUL character, a lone UTF-16 surrogate — is refused at
 * every text input, over tRPC, /mcp and import, as INVALID_INPUT / INVALID_ARGUMENTS naming
 * the field, and nothing is written (it used to be a 500 / -32603 from the failed write).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { createApiKey } from "@/server/domain/api-keys/api-keys";
import { createIdentity } from "@/server/domain/identities/identities";
import { createToken } from "@/server/domain/identities/tokens";
import { exportScope, importScope } from "@/server/domain/memory/portable";
import { grantScope } from "@/server/domain/memory/scopes";
import { serveApp } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";
import { callTool } from "../helpers/mcp-rpc";
import { makeScope, remember, withoutSignature } from "../helpers/memory";

withTestDatabase();

let server: Awaited<ReturnType<typeof serveApp>>;
beforeAll(async () => {
  server = await serveApp();
});
afterAll(async () => {
  await server?.close();
});

const BAD: [string, string][] = [
  ["NUL", "before\u0000after"],
  ["lone high surrogate", "before\uD800after"],
  ["lone low surrogate", "before\uDC00after"],
];

describe("text the database cannot store", () => {
  it("over tRPC: memories.create, memories.search and scopes.create answer 400 naming the field and write nothing", async () => {
    const scope = await makeScope();
    const { key } = await createApiKey(SYSTEM, { name: "text", role: "curator" });
    const trpc = (path: string, input: unknown, mutation = true) => {
      const body = JSON.stringify({ json: input });
      return mutation
        ? fetch(`${server.url}/api/trpc/${path}`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body,
          })
        : fetch(`${server.url}/api/trpc/${path}?input=${encodeURIComponent(body)}`, {
            headers: { authorization: `Bearer ${key}` },
          });
    };
    const db = await getDb();
    for (const [label, text] of BAD) {
      for (const [path, input, field, mutation] of [
        ["memories.create", { scopeId: scope.id, body: text }, "body", true],
        ["memories.create", { scopeId: scope.id, body: "fine", tags: [text] }, "tags.0", true],
        ["memories.create", { scopeId: scope.id, body: "fine", threads: [text] }, "threads.0", true],
        ["memories.search", { scopeId: scope.id, query: text }, "query", false],
        ["scopes.create", { name: `s-${randomUUID().slice(0, 6)}`, description: text }, "description", true],
      ] as const) {
        const answer = await trpc(path, input, mutation);
        const json = await answer.json();
        expect(answer.status, `${label} ${path} ${field}`).toBe(400);
        expect(json.error.json.message, `${label} ${path}`).toContain(`${field}: contains a`);
        expect(json.error.json.data.domainCode).toBe("INVALID_INPUT");
      }
    }
    expect(await db.memory.count({ where: { scopeId: scope.id } })).toBe(0);
  });

  it("over /mcp: remember and search answer INVALID_ARGUMENTS naming the field, never -32603", async () => {
    const scope = await makeScope();
    const identity = await createIdentity(SYSTEM, { name: `text-${randomUUID().slice(0, 8)}` });
    await grantScope(SYSTEM, { scopeId: scope.id, identityId: identity.id, access: "write" });
    const { value: token } = await createToken(SYSTEM, { identityId: identity.id, name: "t" });
    for (const [label, text] of BAD) {
      for (const [tool, args, field] of [
        ["remember", { scope: scope.name, body: text }, "body"],
        ["search", { scope: scope.name, query: text }, "query"],
      ] as const) {
        const answer = await callTool(`${server.url}/mcp`, token, tool, args);
        expect(answer.error, `${label} ${tool}`).toBeUndefined();
        expect(answer.result?.isError, `${label} ${tool}`).toBe(true);
        const said = JSON.stringify(answer.result);
        expect(said).toContain("INVALID_ARGUMENTS");
        expect(said).toContain(`${field}: contains a`);
      }
    }
    const db = await getDb();
    expect(await db.memory.count({ where: { scopeId: scope.id } })).toBe(0);
  });

  it("in an import: refused whole, naming the line and field", async () => {
    const scope = await makeScope();
    await remember(scope.id, "A note to export.");
    const { jsonl } = await exportScope(SYSTEM, { scopeId: scope.id });
    const db = await getDb();
    for (const [label, escaped] of [
      ["NUL", "\\u0000"],
      ["lone surrogate", "\\ud800"],
    ]) {
      const renamed = jsonl
        .replaceAll(scope.id, randomUUID())
        .replace(`"name":"${scope.name}"`, `"name":"${scope.name}-copy"`)
        .replace("A note to export.", `A note${escaped} to export.`);
      const refused = await importScope(SYSTEM, { jsonl: withoutSignature(renamed), acceptUnsigned: true }).then(
        () => null,
        (e: Error) => e.message,
      );
      expect(refused, label).toMatch(/^jsonl: line 2 \(body\): contains a/);
      expect(await db.scope.count({ where: { name: `${scope.name}-copy` } })).toBe(0);
    }
  });
});
