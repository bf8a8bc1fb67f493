import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { ensureBootstrapApiKey } from "@/server/domain/api-keys/api-keys";
import { hashToken } from "@/server/tokens";
import { callerFor, makeUser, trpcHttp } from "../helpers/actors";
import { withTestDatabase } from "../helpers/db";

withTestDatabase();

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe("API keys", () => {
  it("a key works over HTTP with its role, and a revoked key gets 401", async () => {
    const admin = callerFor((await makeUser("admin")).actor);
    const { key, apiKey } = await admin.apiKeys.create({ name: "ci", role: "operator" });
    expect(key).toMatch(/^qm_key_[\w-]{43}$/);

    const me = await trpcHttp("me.get", { headers: bearer(key) });
    expect(me.status).toBe(200);
    expect(me.body.result.data.json).toMatchObject({ kind: "api_key", name: "ci", role: "operator" });

    // Its role is enforced like a person's: an operator key cannot manage users.
    const forbidden = await trpcHttp("users.list", { headers: bearer(key) });
    expect(forbidden.status).toBe(403);

    await admin.apiKeys.revoke({ id: apiKey.id });
    const revoked = await trpcHttp("me.get", { headers: bearer(key) });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.json.message).toMatch(/revoked/);
  });

  it("an unknown or malformed key gets 401, never a session's identity", async () => {
    expect((await trpcHttp("me.get", { headers: bearer("qm_key_nope") })).status).toBe(401);
    expect((await trpcHttp("me.get", { headers: { authorization: "Basic abc" } })).status).toBe(401);
  });

  it("stores only a hash, shows the key once, and records last use", async () => {
    const admin = callerFor((await makeUser("admin")).actor);
    const { key, apiKey } = await admin.apiKeys.create({ name: "once", role: "viewer" });
    const db = await getDb();
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
    expect(row.hash).toBe(hashToken(key));
    expect(JSON.stringify(row)).not.toContain(key);
    expect(row.lastUsedAt).toBeNull();

    const listed = await admin.apiKeys.list();
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(listed.find((k) => k.id === apiKey.id)?.prefix).toBe(`${key.slice(0, 13)}…`);

    await trpcHttp("me.get", { headers: bearer(key) });
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).lastUsedAt).toBeInstanceOf(Date);
  });

  it("rejects a blank or over-long name, naming the field and the limit", async () => {
    const admin = callerFor((await makeUser("admin")).actor);
    await expect(admin.apiKeys.create({ name: " ", role: "viewer" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "name: is required",
    });
    await expect(admin.apiKeys.create({ name: "x".repeat(101), role: "viewer" })).rejects.toMatchObject({
      message: "name: must be at most 100 characters",
    });
  });

  it("QM_BOOTSTRAP_API_KEY makes exactly one admin key with that value, idempotently", async () => {
    const value = "bootstrap-key-for-ci-0123456789abcdef";
    expect(await ensureBootstrapApiKey(value)).toEqual({ created: true });
    expect(await ensureBootstrapApiKey(value)).toEqual({ created: false });
    const db = await getDb();
    expect(await db.apiKey.count({ where: { hash: hashToken(value) } })).toBe(1);
    const me = await trpcHttp("me.get", { headers: bearer(value) });
    expect(me.body.result.data.json.role).toBe("admin");
  });
});

describe("audit log", () => {
  it("records who did what to which object, and filters by actor and action", async () => {
    const { actor } = await makeUser("admin");
    const admin = callerFor(actor);
    const { apiKey } = await admin.apiKeys.create({ name: "audited", role: "viewer" });
    await admin.apiKeys.revoke({ id: apiKey.id });
    const target = await makeUser("viewer");
    await admin.users.update({ id: target.user.id, role: "curator" });

    const mine = await admin.audit.list({ search: actor.kind === "user" ? actor.email : "" });
    const actions = mine.items.map((e) => `${e.action} ${e.targetLabel}`);
    expect(actions).toEqual(
      expect.arrayContaining(["api_key.create audited", "api_key.revoke audited", `user.update ${target.email}`]),
    );
    const update = mine.items.find((e) => e.action === "user.update");
    expect(update).toMatchObject({
      actorType: "user",
      actorId: actor.kind === "user" ? actor.id : null,
      targetType: "user",
      targetId: target.user.id,
    });
    expect(update?.details).toEqual({ role: { from: "viewer", to: "curator" } });

    const onlyRevokes = await admin.audit.list({ action: "api_key.revoke" });
    expect(onlyRevokes.items.every((e) => e.action === "api_key.revoke")).toBe(true);
    expect(onlyRevokes.items.length).toBeGreaterThan(0);

    const byKeys = await admin.audit.list({ actorType: "api_key" });
    expect(byKeys.items.every((e) => e.actorType === "api_key")).toBe(true);
  });

  it("writes made with an API key are attributed to that key", async () => {
    const admin = callerFor((await makeUser("admin")).actor);
    const { key } = await admin.apiKeys.create({ name: "automation", role: "admin" });
    const res = await trpcHttp("apiKeys.create", {
      mutation: true,
      input: { name: "made-by-key", role: "viewer" },
      headers: bearer(key),
    });
    expect(res.status).toBe(200);
    const events = await admin.audit.list({ action: "api_key.create", search: "made-by-key" });
    expect(events.items[0]).toMatchObject({ actorType: "api_key", actorLabel: 'API key "automation"' });
  });

  it("pages with a cursor without repeating or skipping events", async () => {
    const admin = callerFor((await makeUser("admin")).actor);
    for (let i = 0; i < 7; i++) await admin.apiKeys.create({ name: `page-${i}`, role: "viewer" });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await admin.audit.list({ search: "page-", limit: 3, cursor });
      seen.push(...page.items.map((e) => e.targetLabel ?? ""));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen.sort()).toEqual(Array.from({ length: 7 }, (_, i) => `page-${i}`));
  });
});
