/**
 * A scope moves between installations as JSON Lines, losslessly: exported, imported into
 * an empty database and exported again, it reads the same line for line; importing the
 * same file twice changes nothing.
 */
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { closeDatabase, installDatabase } from "@/server/db";
import { consolidateScope } from "@/server/domain/memory/consolidator";
import { eraseMemory } from "@/server/domain/memory/erase";
import { supersedeMemory } from "@/server/domain/memory/memories";
import { exportScope, importScope } from "@/server/domain/memory/portable";
import { acceptProposal, listProposals, rejectProposal } from "@/server/domain/memory/proposals";
import { searchMemories } from "@/server/domain/memory/search";
import { archiveThread, listThreads, pinThreadMember } from "@/server/domain/memory/threads";
import { openFromTemplate, withTestDatabase } from "../helpers/db";
import { makeScope, remember } from "../helpers/memory";

const first = withTestDatabase();

describe("export and import", () => {
  it("round-trips a scope exactly into an empty database, and a second import is a no-op", async () => {
    const scope = await makeScope("Platform team");
    const a = await remember(scope.id, "# Rollbacks\nRoll back by redeploying the previous image tag.", {
      kind: "decision",
      tags: ["deploys"],
      threads: ["runbook"],
      occurredAt: new Date("2026-02-01T09:00:00Z"),
      facts: [{ subject: "rollback", predicate: "method", value: "redeploy previous tag" }],
    });
    await supersedeMemory(SYSTEM, {
      memoryId: a.id,
      body: "# Rollbacks\nRoll back with `deploy --previous`.",
      threads: ["runbook"],
    });
    const dup1 = await remember(scope.id, "Staging is reset every night.");
    await remember(scope.id, "Staging is reset every night.");
    await remember(scope.id, "Metrics live in Grafana; dashboards per service.", { threads: ["observability"] });
    await remember(scope.id, "Metrics live in Grafana; dashboards per service and per team.");
    const gone = await remember(scope.id, "A memory erased before export.");
    await eraseMemory(SYSTEM, { id: gone.id, reason: "test erasure" });
    await consolidateScope(scope.id);
    const proposals = (await listProposals(SYSTEM, { scopeId: scope.id })).items;
    await acceptProposal(SYSTEM, { id: proposals[0]?.id as string });
    if (proposals[1]) await rejectProposal(SYSTEM, { id: proposals[1].id, reason: "keep both wordings" });
    const threads = (await listThreads(SYSTEM, { scopeId: scope.id, archived: "all" })).items;
    await pinThreadMember(SYSTEM, { threadId: threads[0]?.id as string, memoryId: dup1.id, pinned: true });
    await archiveThread(SYSTEM, { threadId: threads[1]?.id as string });

    const exported = await exportScope(SYSTEM, { scopeId: scope.id });
    const types = exported.jsonl
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).type as string);
    expect(new Set(types)).toEqual(new Set(["scope", "memory", "fact", "thread", "thread_member", "proposal"]));

    // Into an empty database.
    const original = first.current();
    const empty = await openFromTemplate();
    installDatabase(empty.opened);
    try {
      const imported = await importScope(SYSTEM, { jsonl: exported.jsonl });
      expect(imported.createdScope).toBe(true);
      expect(imported.imported.memories).toBe(types.filter((t) => t === "memory").length);
      const again = await exportScope(SYSTEM, { scopeId: scope.id });
      expect(again.jsonl).toBe(exported.jsonl);

      const twice = await importScope(SYSTEM, { jsonl: exported.jsonl });
      expect(twice).toMatchObject({
        createdScope: false,
        imported: { memories: 0, facts: 0, threads: 0, members: 0, proposals: 0 },
      });
      expect((await exportScope(SYSTEM, { scopeId: scope.id })).jsonl).toBe(exported.jsonl);

      // The imported memories are searchable there, current ones only.
      const found = await searchMemories(SYSTEM, { scopeId: scope.id, query: "how do we roll back" });
      expect(found.hits[0]?.body).toContain("deploy --previous");
    } finally {
      await closeDatabase();
      await empty.drop();
      installDatabase(original);
    }
  });

  it("refuses a file that is not an export, naming the line", async () => {
    await expect(importScope(SYSTEM, { jsonl: '{"type":"memory"}\n' })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringMatching(/line 1.*scope/),
    });
    const scope = await makeScope();
    await remember(scope.id, "x");
    const { jsonl } = await exportScope(SYSTEM, { scopeId: scope.id });
    const broken = `${jsonl.split("\n")[0]}\n{"type":"memory","id":1}\n`;
    await expect(importScope(SYSTEM, { jsonl: broken })).rejects.toMatchObject({
      message: expect.stringMatching(/line 2/),
    });
  });
});
