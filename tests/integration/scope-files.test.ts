/**
 * A scope as a file over HTTP: the export streams JSON Lines to anyone who may read the
 * scope, the import takes a file larger than a tRPC body may be, for curators only.
 */
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { createApiKey } from "@/server/domain/api-keys/api-keys";
import { deleteScope } from "@/server/domain/memory/scopes";
import { searchMemories } from "@/server/domain/memory/search";
import { handleScopeExport, handleScopeImport } from "@/server/http/scope-files";
import { LIMITS } from "@/server/limits";
import { ORIGIN } from "../helpers/actors";
import { withTestDatabase } from "../helpers/db";
import { makeScope, remember } from "../helpers/memory";

withTestDatabase();

const keyFor = async (role: "viewer" | "curator") => (await createApiKey(SYSTEM, { name: `${role} key`, role })).key;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe("scope files", () => {
  it("streams an export and imports it back, with the caller's role checked", async () => {
    const scope = await makeScope();
    // Over the tRPC body bound in all: ~9 MiB of memories.
    const filler = "x".repeat(60_000);
    for (let i = 0; i < 160; i++) await remember(scope.id, `Rollout note ${i}: ${filler}`);
    await remember(scope.id, "Canary deploys go to 5% of traffic first.");
    const viewer = await keyFor("viewer");
    const curator = await keyFor("curator");

    const exported = await handleScopeExport(
      new Request(`${ORIGIN}/api/v1/scopes/${scope.id}/export`, { headers: bearer(viewer) }),
      scope.id,
    );
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-disposition")).toMatch(/attachment; filename=".*\.jsonl"/);
    const file = await exported.text();
    expect(Buffer.byteLength(file)).toBeGreaterThan(LIMITS.TRPC_REQUEST_BODY_BYTES.value);
    // The scope, its memories, and the signature.
    expect(file.trim().split("\n")).toHaveLength(1 + 161 + 1);

    const unauthenticated = await handleScopeExport(
      new Request(`${ORIGIN}/api/v1/scopes/${scope.id}/export`),
      scope.id,
    );
    expect(unauthenticated.status).toBe(401);

    await deleteScope(SYSTEM, { scopeId: scope.id });
    const post = (headers: Record<string, string>) =>
      handleScopeImport(new Request(`${ORIGIN}/api/v1/scopes/import`, { method: "POST", headers, body: file }));
    const refused = await post(bearer(viewer));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "FORBIDDEN" });
    const crossSite = await post({ origin: "https://evil.example", host: "127.0.0.1:3000" });
    expect(crossSite.status).toBe(403);

    const imported = await post(bearer(curator));
    expect(imported.status).toBe(200);
    expect(await imported.json()).toMatchObject({ createdScope: true, imported: { memories: 161 } });
    const found = await searchMemories(SYSTEM, { scopeId: scope.id, query: "canary traffic" });
    expect(found.hits[0]?.body).toBe("Canary deploys go to 5% of traffic first.");
  });
});
