/**
 * Memories are written once: a correction supersedes, nothing edits a body, superseded
 * memories stay readable by id, and facts are read chronologically over time.
 */
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { listFacts } from "@/server/domain/memory/facts";
import { createMemory, getMemories, getMemory, supersedeMemory } from "@/server/domain/memory/memories";
import { searchMemories } from "@/server/domain/memory/search";
import { getThread, listThreads } from "@/server/domain/memory/threads";
import { withTestDatabase } from "../helpers/db";
import { makeScope, remember } from "../helpers/memory";

withTestDatabase();

const code = (p: Promise<unknown>) =>
  p.then(
    () => "allowed",
    (e: { code?: string }) => e.code,
  );

describe("memories", () => {
  it("the current version of a long history is its end, past the 50 links the chain shows", async () => {
    const scope = await makeScope();
    const first = await remember(scope.id, "Version 0 of the runbook.");
    let last = first;
    for (let i = 1; i <= 51; i++)
      last = await supersedeMemory(SYSTEM, { memoryId: last.id, body: `Version ${i} of the runbook.` });
    expect((await getMemory(SYSTEM, { id: first.id })).currentVersionId).toBe(last.id);
  });

  it("refuses a body over 64 KiB with MEMORY_TOO_LARGE naming the limit, and takes exactly 64 KiB", async () => {
    const scope = await makeScope();
    const atLimit = "é".repeat(32 * 1024); // 2 bytes each: exactly 65,536 bytes
    expect((await remember(scope.id, atLimit)).id).toBeTruthy();
    const error = await createMemory(SYSTEM, { scopeId: scope.id, body: `${atLimit}x` }).catch((e) => e);
    expect(error).toMatchObject({ code: "MEMORY_TOO_LARGE", details: { limit: 65_536, measured: 65_537 } });
    expect(error.message).toMatch(/65,537 bytes.*at most 65,536/);
  });

  it("a correction supersedes the old memory, which stays readable by id; no path edits a body", async () => {
    const scope = await makeScope();
    const first = await remember(scope.id, "# Release train\nWe release on Thursdays.", {
      kind: "decision",
      tags: ["Release"],
      threads: ["releases"],
    });
    const second = await supersedeMemory(SYSTEM, {
      memoryId: first.id,
      body: "# Release train\nWe release on Tuesdays.",
      kind: "decision",
    });
    const third = await createMemory(SYSTEM, {
      scopeId: scope.id,
      body: "We release on Wednesdays now.",
      supersedes: second.id,
    });

    const old = await getMemory(SYSTEM, { id: first.id });
    expect(old.body).toBe("# Release train\nWe release on Thursdays.");
    expect(old).toMatchObject({
      state: "superseded",
      supersededById: second.id,
      title: "Release train",
      tags: ["release"],
    });
    expect(old.chain.map((c) => [c.id, c.relation])).toEqual([
      [first.id, "this"],
      [second.id, "later"],
      [third.id, "later"],
    ]);
    expect((await getMemory(SYSTEM, { id: third.id })).chain.map((c) => c.relation)).toEqual([
      "earlier",
      "earlier",
      "this",
    ]);

    // "The current version" of any link is the end of the chain, not the next link.
    expect(old.currentVersionId).toBe(third.id);
    expect((await getMemory(SYSTEM, { id: second.id })).currentVersionId).toBe(third.id);
    expect((await getMemory(SYSTEM, { id: third.id })).currentVersionId).toBeNull();

    // A memory can be superseded once; a second correction goes to the newest.
    expect(await code(supersedeMemory(SYSTEM, { memoryId: first.id, body: "x" }))).toBe("CONFLICT");

    // Search returns the current memory only, unless history is asked for.
    const current = await searchMemories(SYSTEM, { scopeId: scope.id, query: "when do we release" });
    expect(current.hits.map((h) => h.id)).toEqual([third.id]);
    const history = await searchMemories(SYSTEM, {
      scopeId: scope.id,
      query: "when do we release",
      includeSuperseded: true,
    });
    expect(new Set(history.hits.map((h) => h.id))).toEqual(new Set([first.id, second.id, third.id]));

    // The thread follows the newest version.
    const [thread] = (await listThreads(SYSTEM, { scopeId: scope.id })).items;
    expect((await getThread(SYSTEM, { threadId: thread?.id as string })).members.map((m) => m.id)).toEqual([third.id]);

    // Bodies are as written, byte for byte.
    const db = await getDb();
    const bodies = await db.memory.findMany({
      where: { scopeId: scope.id },
      orderBy: { seq: "asc" },
      select: { body: true },
    });
    expect(bodies.map((b) => b.body)).toEqual([
      "# Release train\nWe release on Thursdays.",
      "# Release train\nWe release on Tuesdays.",
      "We release on Wednesdays now.",
    ]);
  });

  it("reads many bodies in the order asked and lists the ids it cannot return", async () => {
    const scope = await makeScope();
    const a = await remember(scope.id, "Alpha body");
    const b = await remember(scope.id, "Bravo body");
    const result = await getMemories(SYSTEM, { ids: [b.id, "no-such-id", a.id] });
    expect(result.memories.map((m) => m.body)).toEqual(["Bravo body", "Alpha body"]);
    expect(result.missing).toEqual(["no-such-id"]);
    expect(await code(getMemories(SYSTEM, { ids: Array.from({ length: 101 }, (_, i) => `id${i}`) }))).toBe(
      "INVALID_INPUT",
    );
  });
});

describe("facts over time", () => {
  it("reads facts chronologically: current by default, as of a time, and within a bounded range", async () => {
    const scope = await makeScope();
    const at = (d: string) => new Date(`${d}T12:00:00Z`);
    // Written out of order on purpose: validity follows validFrom, not write order.
    await remember(scope.id, "Max connections raised to 200.", {
      kind: "fact",
      occurredAt: at("2026-03-01"),
      facts: [{ subject: "Postgres", predicate: "max connections", value: "200" }],
    });
    await remember(scope.id, "Max connections set to 100.", {
      kind: "fact",
      occurredAt: at("2026-01-10"),
      facts: [{ subject: "postgres", predicate: "Max  Connections", value: "100" }],
    });
    await remember(scope.id, "Max connections lowered to 150.", {
      kind: "fact",
      occurredAt: at("2026-05-20"),
      facts: [
        { subject: "Postgres", predicate: "max connections", value: "150" },
        { subject: "Redis", predicate: "eviction", value: "allkeys-lru" },
      ],
    });

    const now = await listFacts(SYSTEM, { scopeId: scope.id });
    expect(now.items.map((f) => `${f.subject}=${f.value}`)).toEqual(["Postgres=150", "Redis=allkeys-lru"]);

    const april = await listFacts(SYSTEM, { scopeId: scope.id, subject: "POSTGRES", asOf: at("2026-04-01") });
    expect(april.items.map((f) => f.value)).toEqual(["200"]);
    expect(april.items[0]).toMatchObject({ validFrom: at("2026-03-01"), validUntil: at("2026-05-20"), current: false });

    const beforeAny = await listFacts(SYSTEM, { scopeId: scope.id, asOf: at("2025-12-31") });
    expect(beforeAny.items).toEqual([]);

    const all = await listFacts(SYSTEM, { scopeId: scope.id, subject: "postgres", range: {} });
    expect(all.items.map((f) => f.value)).toEqual(["100", "200", "150"]);
    const spring = await listFacts(SYSTEM, {
      scopeId: scope.id,
      subject: "postgres",
      range: { from: at("2026-02-01"), to: at("2026-05-01") },
    });
    expect(spring.items.map((f) => f.value)).toEqual(["100", "200"]);
    expect(
      await code(listFacts(SYSTEM, { scopeId: scope.id, range: { from: at("2026-05-01"), to: at("2026-02-01") } })),
    ).toBe("INVALID_INPUT");
  });
});
