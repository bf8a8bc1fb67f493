/**
 * Erasure (a legal request) takes the body out of every table and index — the memory, a
 * merge built from it, their facts, their full-text entries — and leaves tombstones and an
 * audit record saying who and why.
 */
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { listAuditEvents } from "@/server/domain/audit/list";
import { consolidateScope } from "@/server/domain/memory/consolidator";
import { eraseMemory } from "@/server/domain/memory/erase";
import { getMemory } from "@/server/domain/memory/memories";
import { acceptProposal, listProposals } from "@/server/domain/memory/proposals";
import { searchMemories } from "@/server/domain/memory/search";
import { makeUser } from "../helpers/actors";
import { withTestDatabase } from "../helpers/db";
import { makeScope, remember } from "../helpers/memory";

withTestDatabase();

/** Every text-like column of every table in which `needle` occurs, including search vectors. */
async function tracesOf(needle: string): Promise<string[]> {
  const db = await getDb();
  const columns = await db.$queryRawUnsafe<{ table_name: string; column_name: string; data_type: string }[]>(
    `SELECT table_name, column_name, data_type FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type IN ('text', 'jsonb', 'json', 'tsvector', 'ARRAY', 'character varying')`,
  );
  const found: string[] = [];
  for (const c of columns) {
    const [row] = await db.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT count(*) AS n FROM "${c.table_name}" WHERE "${c.column_name}"::text ILIKE '%' || $1 || '%'`,
      needle,
    );
    if (Number(row?.n) > 0) found.push(`${c.table_name}.${c.column_name}`);
  }
  return found;
}

describe("erasure", () => {
  it("removes the body from every table and index, with merges built from it, and keeps tombstones", async () => {
    const admin = await makeUser("admin");
    const scope = await makeScope();
    const secret = "zanzibarquokka";
    const erased = await remember(
      scope.id,
      `Customer ${secret} asked us to call back on Tuesday about the invoice dispute.`,
      {
        tags: [secret],
        threads: ["billing"],
        facts: [{ subject: "ticket 4711", predicate: "contact", value: secret }],
      },
    );
    // The same without the name: a near-duplicate the erased one only adds to, so they merge.
    const twin = await remember(scope.id, "Customer asked us to call back on Tuesday about the invoice dispute.");
    const unrelated = await remember(scope.id, "The office is closed on public holidays.");

    await consolidateScope(scope.id);
    const merge = (await listProposals(SYSTEM, { scopeId: scope.id })).items.find((p) => p.kind === "merge");
    if (!merge) throw new Error("expected a merge proposal for the near-duplicates");
    const accepted = await acceptProposal(SYSTEM, { id: merge.id });
    const mergedId = accepted.resultMemoryId as string;
    // A newer contact for the ticket: the consolidator proposes superseding the merged
    // memory, quoting the old value (the erased name) in its evidence.
    await remember(scope.id, "The account owner handles ticket 4711 from now on.", {
      occurredAt: new Date(Date.now() + 60_000),
      facts: [{ subject: "ticket 4711", predicate: "contact", value: "the account owner" }],
    });
    await consolidateScope(scope.id);
    const supersede = (await listProposals(SYSTEM, { scopeId: scope.id })).items.find((p) => p.kind === "supersede");
    expect(JSON.stringify(supersede?.evidence)).toContain(secret);
    expect((await tracesOf(secret)).length).toBeGreaterThan(0);

    const result = await eraseMemory(admin.actor, { id: erased.id, reason: "GDPR request #4711" });
    expect(new Set(result.erased)).toEqual(new Set([erased.id, mergedId]));

    // Nothing of the body is left anywhere (the audit details name ids and the reason only).
    expect(await tracesOf(secret)).toEqual([]);
    expect(await tracesOf("invoice dispute")).toEqual(
      // The twin was not erased; its own words stay, and it is current again.
      ["memory.body", "memory.title"],
    );
    expect((await getMemory(SYSTEM, { id: twin.id })).state).toBe("current");
    expect((await searchMemories(SYSTEM, { scopeId: scope.id, query: secret })).hits).toEqual([]);

    // Tombstones say when, by whom and why; the merge result says which memory it came from.
    const tombstone = await getMemory(SYSTEM, { id: erased.id });
    expect(tombstone).toMatchObject({
      state: "erased",
      body: null,
      erasedBy: admin.email,
      erasureReason: "GDPR request #4711",
    });
    const mergedTombstone = await getMemory(SYSTEM, { id: mergedId });
    expect(mergedTombstone.state).toBe("erased");
    expect(mergedTombstone.erasureReason).toContain(erased.id);
    expect(mergedTombstone.mergedFrom.map((m) => m.id).sort()).toEqual([erased.id, twin.id].sort());

    const audit = await listAuditEvents(admin.actor, { action: "memory.erase" });
    expect(audit.items[0]).toMatchObject({
      actorLabel: admin.email,
      targetId: erased.id,
      details: { reason: "GDPR request #4711" },
    });
    expect((await getMemory(SYSTEM, { id: unrelated.id })).state).toBe("current");
  });
});
