/**
 * A scope moves between installations as JSON Lines, losslessly: exported, imported into
 * an empty database and exported again, it reads the same line for line; importing the
 * same file twice changes nothing.
 */
import { describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { closeDatabase, getDb, installDatabase } from "@/server/db";
import { consolidateScope } from "@/server/domain/memory/consolidator";
import { eraseMemory } from "@/server/domain/memory/erase";
import { supersedeMemory } from "@/server/domain/memory/memories";
import { exportScope, importScope } from "@/server/domain/memory/portable";
import { acceptProposal, listProposals, rejectProposal } from "@/server/domain/memory/proposals";
import { searchMemories } from "@/server/domain/memory/search";
import { listSigningKeys, trustSigningKey } from "@/server/domain/memory/signing-keys";
import { archiveThread, listThreads, pinThreadMember } from "@/server/domain/memory/threads";
import { openFromTemplate, withTestDatabase } from "../helpers/db";
import { makeScope, remember, withoutSignature } from "../helpers/memory";

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
    expect(new Set(types)).toEqual(
      new Set(["scope", "memory", "fact", "thread", "thread_member", "proposal", "signature"]),
    );
    expect(types.at(-1)).toBe("signature");
    const firstKey = (await listSigningKeys(SYSTEM, {})).installation;

    // Into an empty database: another installation, with a key of its own.
    const original = first.current();
    const empty = await openFromTemplate();
    installDatabase(empty.opened);
    try {
      await expect(importScope(SYSTEM, { jsonl: exported.jsonl })).rejects.toMatchObject({
        code: "SCOPE_FILE_UNTRUSTED",
        details: { fingerprint: firstKey.fingerprint },
      });
      await trustSigningKey(SYSTEM, { publicKey: firstKey.publicKey, label: "first installation" });
      const imported = await importScope(SYSTEM, { jsonl: exported.jsonl });
      expect(imported.signature).toEqual({
        signed: true,
        fingerprint: firstKey.fingerprint,
        signer: "first installation",
      });
      expect(imported.createdScope).toBe(true);
      expect(imported.imported.memories).toBe(types.filter((t) => t === "memory").length);
      // Line for line, but for the signature: this installation signs with its own key.
      const again = await exportScope(SYSTEM, { scopeId: scope.id });
      expect(withoutSignature(again.jsonl)).toBe(withoutSignature(exported.jsonl));
      expect(again.jsonl.trim().split("\n").at(-1)).not.toContain(firstKey.fingerprint);

      const twice = await importScope(SYSTEM, { jsonl: exported.jsonl });
      expect(twice).toMatchObject({
        createdScope: false,
        imported: { memories: 0, facts: 0, threads: 0, members: 0, proposals: 0 },
      });
      expect(withoutSignature((await exportScope(SYSTEM, { scopeId: scope.id })).jsonl)).toBe(
        withoutSignature(exported.jsonl),
      );

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
    await expect(importScope(SYSTEM, { jsonl: '{"type":"memory"}\n', acceptUnsigned: true })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringMatching(/line 1.*scope/),
    });
    const scope = await makeScope();
    await remember(scope.id, "x");
    const { jsonl } = await exportScope(SYSTEM, { scopeId: scope.id });
    const broken = `${jsonl.split("\n")[0]}\n{"type":"memory","id":1}\n`;
    await expect(importScope(SYSTEM, { jsonl: broken, acceptUnsigned: true })).rejects.toMatchObject({
      message: expect.stringMatching(/line 2/),
    });
  });

  it("holds an import to the rules a scope, thread or tag created in the console is held to", async () => {
    const scope = await makeScope();
    await remember(scope.id, "A memory to carry the file.", { tags: ["deploys"], threads: ["runbook"] });
    const { jsonl } = await exportScope(SYSTEM, { scopeId: scope.id });
    // Edited by hand, so unsigned: each file is imported accepting that.
    const lines = withoutSignature(jsonl)
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const withLine = (type: string, change: Record<string, unknown>) =>
      lines.map((l) => JSON.stringify(l.type === type ? { ...l, ...change } : l)).join("\n");
    const cases: [string, string, RegExp][] = [
      [
        "a scope named with markup",
        withLine("scope", { name: "<img src=x onerror=alert(1)>" }),
        /line 1 \(name\): name may hold letters/,
      ],
      [
        "a scope name starting with punctuation",
        withLine("scope", { name: "-platform" }),
        /line 1 \(name\): name may hold/,
      ],
      ["a blank scope name", withLine("scope", { name: "   " }), /line 1 \(name\): name is required/],
      [
        "a scope name over the limit",
        withLine("scope", { name: "a".repeat(101) }),
        /line 1 \(name\): name may be at most 100/,
      ],
      ["a blank thread name", withLine("thread", { name: " " }), /line \d+ \(name\): name is required/],
      [
        "a thread name over the limit",
        withLine("thread", { name: "n".repeat(101) }),
        /line \d+ \(name\): name may be at most 100/,
      ],
      [
        "a tag over the limit",
        withLine("memory", { tags: ["t".repeat(65)] }),
        /line 2 \(tags\.0\): tag may be at most 64/,
      ],
      ["a description over the limit", withLine("scope", { description: "d".repeat(2001) }), /line 1 \(description\)/],
    ];

    // Into an installation that does not hold the scope yet, where the import would create it.
    const original = first.current();
    const empty = await openFromTemplate();
    installDatabase(empty.opened);
    try {
      const db = await getDb();
      for (const [what, file, message] of cases) {
        await expect(importScope(SYSTEM, { jsonl: file, acceptUnsigned: true }), what).rejects.toMatchObject({
          code: "INVALID_INPUT",
          message: expect.stringMatching(message),
        });
        expect(await db.scope.count(), what).toBe(0);
        expect(await db.memory.count(), what).toBe(0);
      }
      // The message says what is wrong with the name, not that the line describes no scope.
      await expect(
        importScope(SYSTEM, { jsonl: withLine("scope", { name: "<b>" }), acceptUnsigned: true }),
      ).rejects.toMatchObject({
        message: expect.not.stringMatching(/must describe the scope/),
      });
      // A name the rule allows still imports, and the file as exported still does.
      const renamed = await importScope(SYSTEM, {
        jsonl: withLine("scope", { name: `Imported ${scope.name}` }),
        acceptUnsigned: true,
      });
      expect(renamed).toMatchObject({ createdScope: true, imported: { memories: 1, threads: 1 } });
    } finally {
      await closeDatabase();
      await empty.drop();
      installDatabase(original);
    }
  });
});
