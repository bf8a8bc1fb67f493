/**
 * The memory lists the console scrolls in blocks (decisions/0017, 0022): memories (plain
 * and searched), a thread's members, threads and proposals read by offset block by block
 * are exactly the whole list, each says how many rows it has, memories sharing a time keep
 * their write order, and the scope version moves with every write and only then.
 */
import { describe, expect, it } from "vitest";
import { offsetCursor } from "@/server/domain/paging";
import { callerFor, makeUser } from "../helpers/actors";
import { withTestDatabase } from "../helpers/db";
import { memoryScopeFile, memoryTitle, proposalRationale } from "../helpers/memory-scope-file";

withTestDatabase();

async function curatorApi() {
  return callerFor((await makeUser("curator")).actor);
}

/** Every block of a list read `limit` rows at a time by offset, concatenated; checks total is the same in each. */
async function readByOffset<T>(
  read: (page: {
    cursor?: string;
    limit: number;
  }) => Promise<{ items: T[]; total: number; nextCursor?: string | null }>,
  limit: number,
): Promise<{ rows: T[]; total: number }> {
  const rows: T[] = [];
  let total: number | undefined;
  for (;;) {
    const page = await read({ cursor: offsetCursor(rows.length), limit });
    if (total === undefined) total = page.total;
    expect(page.total, "every block says the same total").toBe(total);
    rows.push(...page.items);
    if (!page.nextCursor) return { rows, total };
    expect(page.nextCursor).toBe(offsetCursor(rows.length));
  }
}

const N = 450;

describe("memory lists", () => {
  it("read by offset block by block equal the whole list, newest first with write order among memories sharing a time", async () => {
    const api = await curatorApi();
    const file = memoryScopeFile(`lists-${Date.now()}`, N);
    await api.scopes.import({ jsonl: file.jsonl, acceptUnsigned: true });

    const whole = await api.memories.list({ scopeId: file.scopeId, limit: 500 });
    expect(whole.total).toBe(N);
    expect(whole.matched).toBe(N);
    expect(whole.nextCursor).toBeNull();
    // Ten memories share each moment; among them the later-written comes first.
    expect(whole.items.slice(0, 12).map((m) => m.title)).toEqual(
      Array.from({ length: 12 }, (_, i) => memoryTitle(N - 1 - i)),
    );
    const blocks = await readByOffset((p) => api.memories.list({ scopeId: file.scopeId, ...p }), 100);
    expect(blocks.rows.map((m) => m.id)).toEqual(whole.items.map((m) => m.id));

    // Narrowed by a tag: the count says how many of the N.
    const tagged = await api.memories.list({ scopeId: file.scopeId, tags: ["hundredth"] });
    expect(tagged.total).toBe(Math.ceil(N / 100));

    // A query: every block is cut from one ranking, and says how many matched.
    const query = { scopeId: file.scopeId, query: "rollout of service 42" };
    const ranked = await api.memories.list({ ...query, limit: 500 });
    expect(ranked.total).toBeGreaterThan(0);
    expect(ranked.matched).toBeGreaterThanOrEqual(
      ranked.total - ranked.items.filter((h) => h.signals.context > 0).length,
    );
    const rankedBlocks = await readByOffset((p) => api.memories.list({ ...query, ...p }), 37);
    expect(rankedBlocks.total).toBe(ranked.total);
    expect(rankedBlocks.rows.map((m) => m.id)).toEqual(ranked.items.map((m) => m.id));

    // The search API pages the same way, with a cursor of its own.
    const first = await api.memories.search({ scopeId: file.scopeId, limit: 50 });
    expect(first).toMatchObject({ total: N, matched: N, nextCursor: offsetCursor(50) });
    const second = await api.memories.search({ scopeId: file.scopeId, limit: 50, cursor: first.nextCursor ?? "" });
    expect(second.hits.map((h) => h.id)).toEqual(whole.items.slice(50, 100).map((m) => m.id));
  });

  it("a thread's members, the threads and the proposals read by offset equal the whole list", async () => {
    const api = await curatorApi();
    const file = memoryScopeFile(`members-${Date.now()}`, N, { proposals: 120 });
    await api.scopes.import({ jsonl: file.jsonl, acceptUnsigned: true });
    await api.threads.pin({ threadId: file.threadId, memoryId: file.ids[7] as string, pinned: true });

    const members = await api.threads.members({ threadId: file.threadId, limit: 500 });
    expect(members.total).toBe(N);
    expect(members.items[0]?.id).toBe(file.ids[7]);
    // Members sharing a time keep the memory list's order: the later-written first.
    expect(members.items.slice(1, 4).map((m) => m.title)).toEqual([N - 1, N - 2, N - 3].map(memoryTitle));
    const memberBlocks = await readByOffset((p) => api.threads.members({ threadId: file.threadId, ...p }), 64);
    expect(memberBlocks.rows.map((m) => m.id)).toEqual(members.items.map((m) => m.id));

    for (let i = 0; i < 7; i++) await api.threads.create({ scopeId: file.scopeId, name: `Thread ${i}` });
    const threads = await api.threads.list({ scopeId: file.scopeId, limit: 500 });
    expect(threads.total).toBe(8);
    const threadBlocks = await readByOffset((p) => api.threads.list({ scopeId: file.scopeId, ...p }), 3);
    expect(threadBlocks.rows.map((t) => t.id)).toEqual(threads.items.map((t) => t.id));

    // Duplicates for the consolidator: one proposal per pair.
    for (let i = 0; i < 5; i++)
      for (let copy = 0; copy < 2; copy++)
        await api.memories.create({ scopeId: file.scopeId, body: `Duplicate note ${i}: the pager rotates weekly.` });
    await api.consolidator.run({ scopeId: file.scopeId });
    const proposals = await api.proposals.list({ scopeId: file.scopeId, limit: 500 });
    expect(proposals.total).toBeGreaterThanOrEqual(125);
    // The imported proposals are as the consolidator files them: pending, and not stale.
    const imported = proposals.items.filter(
      (p) => p.rationale === proposalRationale(0) || p.rationale === proposalRationale(119),
    );
    expect(imported.map((p) => p.stale)).toEqual([false, false]);
    const proposalBlocks = await readByOffset((p) => api.proposals.list({ scopeId: file.scopeId, ...p }), 2);
    expect(proposalBlocks.rows.map((p) => p.id)).toEqual(proposals.items.map((p) => p.id));
  });

  it("the scope version moves with every write to the scope's lists, and stays put for reads and other scopes", async () => {
    const api = await curatorApi();
    const scope = await api.scopes.create({ name: `version-${Date.now()}` });
    const other = await api.scopes.create({ name: `version-other-${Date.now()}` });
    const version = async () => (await api.scopes.version({ scopeId: scope.id })).version;
    let last = await version();
    const expectMoved = async (what: string) => {
      const now = await version();
      expect(now, what).not.toBe(last);
      last = now;
    };

    const a = await api.memories.create({
      scopeId: scope.id,
      body: "The pager rotates every Monday.",
      threads: ["Ops"],
    });
    await expectMoved("a memory written");
    await api.memories.search({ scopeId: scope.id, query: "pager" });
    await api.memories.list({ scopeId: scope.id });
    await api.scopes.list();
    await api.memories.create({ scopeId: other.id, body: "Another scope's note." });
    expect(await version(), "reads and another scope's writes").toBe(last);

    const thread = (await api.threads.list({ scopeId: scope.id })).items[0];
    if (!thread) throw new Error("the memory's thread is missing");
    await api.threads.pin({ threadId: thread.id, memoryId: a.id, pinned: true });
    await expectMoved("a pin");
    await api.threads.rename({ threadId: thread.id, name: "Operations" });
    await expectMoved("a thread renamed");
    await api.threads.removeMembers({ threadId: thread.id, memoryIds: [a.id] });
    await expectMoved("a member removed");
    const b = await api.memories.supersede({ memoryId: a.id, body: "The pager rotates every Tuesday." });
    await expectMoved("a correction");
    await api.memories.create({ scopeId: scope.id, body: "The pager rotates every Tuesday." });
    await api.consolidator.run({ scopeId: scope.id });
    await expectMoved("the consolidator filing a proposal");
    const [proposal] = (await api.proposals.list({ scopeId: scope.id })).items;
    if (!proposal) throw new Error("no proposal filed");
    await api.proposals.reject({ id: proposal.id, reason: "Kept apart on purpose." });
    await expectMoved("a proposal decided");
    await api.threads.delete({ threadId: thread.id });
    await expectMoved("a thread deleted");
    expect(b.id).toBeTruthy();
  });
});
