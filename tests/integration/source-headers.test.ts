/**
 * A Connection's saved auth headers are credentials for one server. They must not follow
 * the Connection to a URL on another origin unless an operator says so, and they open only
 * in their own Source's row.
 */
import { afterAll, describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { listAuditEvents } from "@/server/domain/audit/list";
import { connectionTo } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { type RunningServer, simpleTool, startSdkServer } from "../helpers/mcp-servers";

withTestDatabase();
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function server() {
  const s = await startSdkServer({ catalog: () => [simpleTool("lookup")] });
  servers.push(s);
  return s;
}

const SECRET = "Bearer secret-for-the-first-server";
const authorizations = (s: RunningServer) => s.requests.map((r) => r.headers.authorization).filter(Boolean);

describe("saved headers and a changed URL", () => {
  it("are not sent to a new origin unless re-entered or kept, and the audit log says which", async () => {
    const first = await server();
    const second = await server();
    const { api, source } = await connectionTo(first.url, { headers: { Authorization: SECRET } });
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
    expect(authorizations(first)).toContain(SECRET);

    // Only the URL, to another origin: refused, naming the headers; nothing reaches the new server.
    await expect(api.sources.update({ id: source.id, url: second.url })).rejects.toMatchObject({
      message: expect.stringMatching(/^headers: the new URL is on another origin/),
    });
    expect((await api.sources.get({ id: source.id })).url).toBe(first.url);
    await api.sources.checkNow({ id: source.id });
    expect(second.requests).toEqual([]);

    // The same origin, another path: the headers stay with their server.
    const samePath = first.url.replace(/\/mcp$/, "/mcp?tenant=a");
    await api.sources.update({ id: source.id, url: samePath });

    // Re-entered (here: none): the new origin gets no secret.
    await api.sources.update({ id: source.id, url: second.url, headers: {} });
    expect((await api.sources.checkNow({ id: source.id })).status).toBe("succeeded");
    expect(second.requests.length).toBeGreaterThan(0);
    expect(authorizations(second)).toEqual([]);

    // Kept on purpose: then, and only then, they go along.
    const third = await server();
    await api.sources.update({ id: source.id, headers: { Authorization: SECRET } });
    await api.sources.update({ id: source.id, url: third.url, keepHeaders: true });
    await api.sources.checkNow({ id: source.id });
    expect(authorizations(third)).toContain(SECRET);

    const audit = await listAuditEvents(SYSTEM, { targetId: source.id, limit: 50 });
    const moves = audit.items
      .map((e) => (e.details as { headersAtNewOrigin?: { headers: string } } | null)?.headersAtNewOrigin?.headers)
      .filter(Boolean);
    expect(moves.sort()).toEqual(["kept", "re-entered"]);
    const reentered = audit.items.find((e) => (e.details as { url?: { to: string } } | null)?.url?.to === second.url)
      ?.details as { headerNames?: unknown };
    expect(reentered?.headerNames).toEqual({ from: ["Authorization"], to: [] });
  });

  it("open only in their own Source: a sealed blob copied into another Source's row is refused, not sent", async () => {
    const owner = await server();
    const thief = await server();
    const { api, source } = await connectionTo(owner.url, { headers: { Authorization: SECRET } });
    const other = (await connectionTo(thief.url)).source;
    const db = await getDb();
    const { encryptedHeaders } = await db.source.findUniqueOrThrow({
      where: { id: source.id },
      select: { encryptedHeaders: true },
    });
    expect(encryptedHeaders).toMatch(/^v2\./);
    await db.source.update({ where: { id: other.id }, data: { encryptedHeaders } });

    const outcome = await api.sources.checkNow({ id: other.id });
    expect(outcome.failure).toMatchObject({
      code: "CATALOG_CHECK_FAILED",
      message: expect.stringContaining("cannot be decrypted"),
    });
    expect(thief.requests).toEqual([]);
  });
});
