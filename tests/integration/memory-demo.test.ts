/**
 * The demo's memory: a new curator must find every memory page with something real on it —
 * a few hundred memories, a supersession chain, facts that changed, threads with pins and
 * an archived one, grants, and pending proposals of every kind with their history.
 */
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { DEMO_SCOPE, DEMO_SUPPORT_SCOPE, seedMemoryDemo } from "@/server/domain/demo/memory-seed";
import { createIdentity } from "@/server/domain/identities/identities";
import { createToken } from "@/server/domain/identities/tokens";
import { listFacts } from "@/server/domain/memory/facts";
import { getMemory } from "@/server/domain/memory/memories";
import { listProposals } from "@/server/domain/memory/proposals";
import { listScopeGrants, listScopes } from "@/server/domain/memory/scopes";
import { searchMemories } from "@/server/domain/memory/search";
import { listThreads } from "@/server/domain/memory/threads";
import { createUser } from "@/server/domain/users/users";
import { withTestDatabase } from "../helpers/db";

withTestDatabase();

describe("demo memory", () => {
  it("seeds scopes, memories, threads, grants and pending proposals of every kind, once", async () => {
    const writer = await createIdentity(SYSTEM, { name: "Research agent (demo)" });
    const reader = await createIdentity(SYSTEM, { name: "Support agent (demo)" });
    await createToken(SYSTEM, { identityId: writer.id, name: "Demo agent" });
    await createUser(SYSTEM, {
      email: "carl.curator@quartermaster.demo",
      name: "Carl Curator",
      role: "curator",
      password: "curator-password-123",
    });
    await createUser(SYSTEM, {
      email: "admin@quartermaster.demo",
      name: "Demo Admin",
      role: "admin",
      password: "admin-password-123",
    });

    await seedMemoryDemo({ writer: writer.id, reader: reader.id });

    const scopes = Object.fromEntries((await listScopes(SYSTEM)).map((s) => [s.name, s]));
    const platform = scopes[DEMO_SCOPE];
    expect(platform?.memories).toBeGreaterThanOrEqual(200);
    expect(scopes[DEMO_SUPPORT_SCOPE]?.memories).toBeGreaterThan(5);
    if (!platform) throw new Error("no demo scope");

    const grants = await listScopeGrants(SYSTEM, { scopeId: platform.id });
    expect(grants.map((g) => `${g.identityName}:${g.access}`).sort()).toEqual([
      "Research agent (demo):write",
      "Support agent (demo):read",
    ]);

    // Authors are an agent and people, as in a real team.
    const db = await getDb();
    const byAuthor = await db.memory.groupBy({ by: ["authorType"], where: { scopeId: platform.id }, _count: true });
    expect(byAuthor.map((a) => a.authorType).sort()).toEqual(["agent", "user"]);

    const pending = (await listProposals(SYSTEM, { scopeId: platform.id, limit: 200 })).items;
    const reasons = new Set(pending.map((p) => (p.evidence as { reason: string }).reason));
    expect([...reasons].sort()).toEqual(["exact_duplicate", "near_duplicate", "newer_fact", "no_content"]);
    expect(pending.every((p) => !p.stale)).toBe(true);
    const decided = (await listProposals(SYSTEM, { scopeId: platform.id, status: "all", limit: 200 })).items.filter(
      (p) => p.status !== "pending",
    );
    expect(decided.map((p) => p.status).sort()).toEqual(["accepted", "rejected"]);

    const threads = await listThreads(SYSTEM, { scopeId: platform.id, archived: "all" });
    expect(threads.items.length).toBeGreaterThanOrEqual(6);
    expect(threads.items.filter((t) => t.archivedAt)).toHaveLength(1);
    expect(threads.items.filter((t) => t.pinned > 0).length).toBeGreaterThanOrEqual(4);

    // A chain of corrections, readable from its newest memory.
    const hits = await searchMemories(SYSTEM, { scopeId: platform.id, query: "gRPC deadline payment writes" });
    const newest = hits.hits.find((h) => h.body.includes("plus one retry"));
    expect(newest).toBeDefined();
    const memory = await getMemory(SYSTEM, { id: newest?.id });
    expect(memory.chain.map((c) => c.relation)).toEqual(["earlier", "earlier", "this"]);

    // Facts changed over time: the on-call primary now, and its history.
    const now = await listFacts(SYSTEM, { scopeId: platform.id, subject: "payments-api on-call" });
    expect(now.items.map((f) => f.value)).toEqual(["Tomás Ortega"]);
    const history = await listFacts(SYSTEM, { scopeId: platform.id, subject: "payments-api on-call", range: {} });
    expect(history.items).toHaveLength(4);

    // Junk beside the answer ranks after every memory that matches the question itself, and
    // the consolidator proposes discarding it (issue 30: "ok" ranked third, all from context).
    const question = "how do we rotate the payments-api webhook signing secret?";
    const ranked = (await searchMemories(SYSTEM, { scopeId: platform.id, query: question, limit: 50 })).hits;
    const own = (h: (typeof ranked)[number]) => h.signals.fulltext + h.signals.trigram + h.signals.vector > 0;
    expect(ranked[0]?.body).toMatch(/webhook/i);
    const firstContextOnly = ranked.findIndex((h) => !own(h));
    if (firstContextOnly >= 0) expect(ranked.slice(firstContextOnly).every((h) => !own(h))).toBe(true);
    const ok = await db.memory.findFirst({ where: { scopeId: platform.id, body: "ok" }, select: { id: true } });
    expect(ok).not.toBeNull();
    const okAt = ranked.findIndex((h) => h.id === ok?.id);
    const matching = ranked.filter(own).length;
    expect(matching).toBeGreaterThan(2);
    if (okAt >= 0) expect(okAt).toBeGreaterThanOrEqual(matching);
    expect(pending.some((p) => p.kind === "discard" && p.memoryIds.includes(ok?.id ?? ""))).toBe(true);

    // A second run (a restart) adds nothing.
    await seedMemoryDemo({ writer: writer.id, reader: reader.id });
    expect((await listScopes(SYSTEM)).find((s) => s.name === DEMO_SCOPE)?.memories).toBe(platform.memories);
  });
});
