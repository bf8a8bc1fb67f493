/**
 * Nothing reaches across scopes: an import naming another scope's memory, thread or
 * proposal in any field is refused whole and changes nothing; the database itself refuses
 * a membership, fact, supersession or handoff across scopes, whatever code writes it; a
 * proposal naming another scope's memory can be neither listed with that body nor accepted.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { getDb } from "@/server/db";
import { createApiKey } from "@/server/domain/api-keys/api-keys";
import { createIdentity } from "@/server/domain/identities/identities";
import { createToken } from "@/server/domain/identities/tokens";
import { fingerprintOf } from "@/server/domain/memory/consolidator";
import { getMemory } from "@/server/domain/memory/memories";
import { exportScope, importScope } from "@/server/domain/memory/portable";
import { acceptProposal, listProposals } from "@/server/domain/memory/proposals";
import { grantScope } from "@/server/domain/memory/scopes";
import { listThreads } from "@/server/domain/memory/threads";
import { serveApp } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";
import { callTool } from "../helpers/mcp-rpc";
import { makeScope, remember } from "../helpers/memory";

withTestDatabase();

let server: Awaited<ReturnType<typeof serveApp>>;
beforeAll(async () => {
  server = await serveApp();
});
afterAll(async () => {
  await server?.close();
});

/** Another team's scope: a memory in a thread, whose export any viewer may download. */
async function victimScope() {
  const scope = await makeScope();
  const memory = await remember(scope.id, "Victim secret: the payroll database password rotates on Fridays.", {
    threads: ["payroll"],
  });
  const [thread] = (await listThreads(SYSTEM, { scopeId: scope.id })).items;
  return { scope, memory, thread: thread as { id: string; name: string } };
}

const line = (o: Record<string, unknown>) => JSON.stringify(o);

/** A minimal, valid export of a new scope: one memory in one thread. */
function attackerFile(name: string) {
  const scopeId = randomUUID();
  const memoryId = randomUUID();
  const threadId = randomUUID();
  const at = "2026-01-01T00:00:00.000Z";
  const lines: Record<string, unknown>[] = [
    {
      type: "scope",
      format: "quartermaster.scope/v1",
      id: scopeId,
      name,
      description: "",
      consolidateEverySeconds: 3600,
      createdAt: at,
    },
    {
      type: "memory",
      id: memoryId,
      kind: "note",
      body: "An innocent note.",
      title: "An innocent note.",
      bodyBytes: 17,
      contentHash: null,
      tags: [],
      authorType: "system",
      authorId: null,
      authorLabel: "test",
      occurredAt: at,
      recordedAt: at,
      episodeId: "e",
      supersededById: null,
      supersededAt: null,
      discardedAt: null,
      mergedFrom: [],
      erasedAt: null,
      erasedBy: null,
      erasureReason: null,
    },
    { type: "thread", id: threadId, name: "notes", description: "", archivedAt: null, createdAt: at, updatedAt: at },
    { type: "thread_member", threadId, memoryId, addedAt: at, pinnedAt: null },
  ];
  const proposal = (memoryIds: string[], extra: Record<string, unknown> = {}) => ({
    type: "proposal",
    id: randomUUID(),
    kind: "discard",
    status: "pending",
    memoryIds,
    key: `discard:${memoryIds.join(",")}`,
    rationale: "duplicate",
    score: 0.99,
    evidence: {},
    fingerprint: "x",
    filedAt: at,
    decidedAt: null,
    decidedByType: null,
    decidedById: null,
    decidedByLabel: null,
    decisionReason: null,
    resultMemoryId: null,
    ...extra,
  });
  const fact = (memory: string) => ({
    type: "fact",
    id: randomUUID(),
    memoryId: memory,
    subject: "s",
    predicate: "p",
    value: "v",
    subjectKey: "s",
    predicateKey: "p",
    validFrom: at,
    validUntil: null,
    recordedAt: at,
  });
  return {
    scopeId,
    memoryId,
    threadId,
    lines,
    proposal,
    fact,
    jsonl: (extra: Record<string, unknown>[] = [], patch: (ls: Record<string, unknown>[]) => void = () => {}) => {
      const all = structuredClone([...lines, ...extra]);
      patch(all);
      return `${all.map(line).join("\n")}\n`;
    },
  };
}

async function counts(scopeId: string) {
  const db = await getDb();
  const [members, facts, proposals] = await Promise.all([
    db.threadMember.count({ where: { scopeId } }),
    db.fact.count({ where: { scopeId } }),
    db.proposal.count({ where: { scopeId } }),
  ]);
  return { members, facts, proposals };
}

async function agentToken(grants: Record<string, "read" | "write">) {
  const identity = await createIdentity(SYSTEM, { name: `integrity-${randomUUID().slice(0, 8)}` });
  for (const [scopeId, access] of Object.entries(grants))
    await grantScope(SYSTEM, { scopeId, identityId: identity.id, access });
  const { value } = await createToken(SYSTEM, { identityId: identity.id, name: "test" });
  return value;
}

describe("an import reaches no other scope", () => {
  it("over HTTP: a membership naming another scope's memory or thread is refused whole, naming the line and field", async () => {
    const victim = await victimScope();
    const before = await counts(victim.scope.id);
    const { key } = await createApiKey(SYSTEM, { name: "importer", role: "curator" });
    const file = attackerFile(`attacker-${randomUUID().slice(0, 8)}`);
    const post = (jsonl: string) =>
      fetch(`${server.url}/api/trpc/scopes.import`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ json: { jsonl, acceptUnsigned: true } }),
      });
    const at = "2026-01-01T00:00:00.000Z";
    const a = await post(
      file.jsonl([
        { type: "thread_member", threadId: file.threadId, memoryId: victim.memory.id, addedAt: at, pinnedAt: at },
      ]),
    );
    expect(a.status).toBe(400);
    const aBody = await a.json();
    expect(aBody.error.json.message).toContain("line 5 (memoryId)");
    expect(aBody.error.json.message).toContain(victim.memory.id);
    expect(aBody.error.json.data.domainCode).toBe("INVALID_INPUT");

    const b = await post(
      file.jsonl([
        { type: "thread_member", threadId: victim.thread.id, memoryId: file.memoryId, addedAt: at, pinnedAt: at },
      ]),
    );
    expect(b.status).toBe(400);
    expect((await b.json()).error.json.message).toContain("line 5 (threadId)");

    const db = await getDb();
    expect(await db.scope.count({ where: { id: file.scopeId } })).toBe(0);
    expect(await db.memory.count({ where: { id: file.memoryId } })).toBe(0);
    expect(await counts(victim.scope.id)).toEqual(before);
  });

  it("refuses every other field that could name another scope's memory, thread or proposal", async () => {
    const victim = await victimScope();
    const before = await counts(victim.scope.id);
    const db = await getDb();
    const victimFact = await db.fact.findFirst({ where: { scopeId: victim.scope.id }, select: { id: true } });
    const victimProposalId = randomUUID();
    await db.proposal.create({
      data: {
        id: victimProposalId,
        scopeId: victim.scope.id,
        kind: "discard",
        memoryIds: [victim.memory.id],
        key: `discard:${victim.memory.id}`,
        rationale: "r",
        score: 0.5,
        evidence: {},
        fingerprint: "f",
      },
    });
    const cases: [string, (f: ReturnType<typeof attackerFile>) => string, string][] = [
      [
        "supersededById",
        (f) => f.jsonl([], (ls) => Object.assign(ls[1] as object, { supersededById: victim.memory.id })),
        "line 2 (supersededById)",
      ],
      [
        "mergedFrom",
        (f) => f.jsonl([], (ls) => Object.assign(ls[1] as object, { mergedFrom: [victim.memory.id] })),
        "line 2 (mergedFrom.0)",
      ],
      ["fact.memoryId", (f) => f.jsonl([f.fact(victim.memory.id)]), "line 5 (memoryId)"],
      ["proposal.memoryIds", (f) => f.jsonl([f.proposal([f.memoryId, victim.memory.id])]), "line 5 (memoryIds.1)"],
      [
        "proposal.resultMemoryId",
        (f) => f.jsonl([f.proposal([f.memoryId], { status: "accepted", resultMemoryId: victim.memory.id })]),
        "line 5 (resultMemoryId)",
      ],
      [
        "a thread id of another scope",
        (f) => f.jsonl([], (ls) => Object.assign(ls[2] as object, { id: victim.thread.id })),
        "line 3 (id): thread",
      ],
      [
        "a proposal id of another scope",
        (f) => f.jsonl([{ ...f.proposal([f.memoryId]), id: victimProposalId }]),
        "line 5 (id): proposal",
      ],
      ...(victimFact
        ? ([
            [
              "a fact id of another scope",
              (f: ReturnType<typeof attackerFile>) => f.jsonl([{ ...f.fact(f.memoryId), id: victimFact.id }]),
              "line 5 (id): fact",
            ],
          ] as [string, (f: ReturnType<typeof attackerFile>) => string, string][])
        : []),
    ];
    for (const [label, build, where] of cases) {
      const file = attackerFile(`attacker-${randomUUID().slice(0, 8)}`);
      const refused = await importScope(SYSTEM, { jsonl: build(file), acceptUnsigned: true }).then(
        () => null,
        (e: Error) => e.message,
      );
      expect(refused, label).toContain(where);
      expect(refused, label).toMatch(/nothing was imported/i);
      expect(await db.scope.count({ where: { id: file.scopeId } }), label).toBe(0);
    }
    expect(await counts(victim.scope.id)).toEqual({ ...before, proposals: before.proposals + 1 });
    expect((await getMemory(SYSTEM, { id: victim.memory.id })).state).toBe("current");
  });

  it("still imports a file whose supersession links span more than one write batch", async () => {
    const file = attackerFile(`batches-${randomUUID().slice(0, 8)}`);
    const template = file.lines[1] as Record<string, unknown>;
    const ids = Array.from({ length: 600 }, () => randomUUID());
    const memories = ids.map((id, i) => ({
      ...template,
      id,
      body: `Note ${i}`,
      title: `Note ${i}`,
      bodyBytes: Buffer.byteLength(`Note ${i}`),
      // The first is superseded by the last, which a later batch writes.
      supersededById: i === 0 ? ids[599] : null,
      supersededAt: i === 0 ? "2026-01-02T00:00:00.000Z" : null,
    }));
    const result = await importScope(SYSTEM, { jsonl: file.jsonl(memories), acceptUnsigned: true });
    expect(result.imported.memories).toBe(601);
    expect(await getMemory(SYSTEM, { id: ids[0] as string })).toMatchObject({
      state: "superseded",
      supersededById: ids[599],
    });
    const exported = await exportScope(SYSTEM, { scopeId: file.scopeId });
    expect(exported.jsonl).toContain(`"supersededById":"${ids[599]}"`);
  });
});

describe("the database refuses a reference across scopes", () => {
  it("a hand-written membership, fact, supersession or handoff across scopes fails on its constraint", async () => {
    const a = await victimScope();
    const b = await victimScope();
    const db = await getDb();
    const attempts: [string, string, unknown[]][] = [
      [
        "thread_member",
        `INSERT INTO thread_member ("scopeId", "threadId", "memoryId") VALUES ($1, $2, $3)`,
        [a.scope.id, a.thread.id, b.memory.id],
      ],
      [
        "thread_member (thread)",
        `INSERT INTO thread_member ("scopeId", "threadId", "memoryId") VALUES ($1, $2, $3)`,
        [b.scope.id, a.thread.id, b.memory.id],
      ],
      [
        "fact",
        `INSERT INTO fact (id, "scopeId", "memoryId", subject, predicate, value, "subjectKey", "predicateKey", "validFrom")
         VALUES (gen_random_uuid()::text, $1, $2, 's', 'p', 'v', 's', 'p', now())`,
        [a.scope.id, b.memory.id],
      ],
      ["memory.supersededById", `UPDATE memory SET "supersededById" = $2 WHERE id = $1`, [a.memory.id, b.memory.id]],
      [
        "handoff",
        `INSERT INTO handoff (id, "memoryId", "scopeId", "toThreadId") VALUES (gen_random_uuid()::text, $1, $2, $3)`,
        [b.memory.id, a.scope.id, a.thread.id],
      ],
    ];
    for (const [label, sql, params] of attempts) {
      const error = await db.$executeRawUnsafe(sql, ...params).then(
        () => null,
        (e: Error) => e.message,
      );
      expect(error, label).toMatch(/foreign key|violates/i);
    }
    expect((await getMemory(SYSTEM, { id: a.memory.id })).state).toBe("current");
  });
});

describe("a proposal naming another scope's memory", () => {
  it("is listed without that memory's body and can be accepted neither in the console nor over /mcp", async () => {
    const victim = await victimScope();
    const mine = await makeScope();
    const own = await remember(mine.id, "My own note.");
    const db = await getDb();
    // Past the import, as a bug or a hand-written row would put it.
    const planted = await db.proposal.create({
      data: {
        scopeId: mine.id,
        kind: "discard",
        memoryIds: [victim.memory.id, own.id],
        key: `discard:${victim.memory.id}`,
        rationale: "looks like a duplicate",
        score: 0.99,
        evidence: {},
        fingerprint: await fingerprintOf(db, [victim.memory.id, own.id]),
      },
    });
    const listed = await listProposals(SYSTEM, { scopeId: mine.id });
    expect(JSON.stringify(listed)).not.toContain("payroll database password");
    expect(listed.items[0]?.memories[0]).toBeNull();

    const token = await agentToken({ [mine.id]: "write" });
    const answer = await callTool(`${server.url}/mcp`, token, "review_proposals", {
      action: "accept",
      id: planted.id,
      scope: mine.name,
    });
    expect(answer.result?.isError).toBe(true);
    expect(JSON.stringify(answer.result)).toContain("PROPOSAL_STALE");
    await expect(acceptProposal(SYSTEM, { id: planted.id })).rejects.toThrow(/not in scope|decided/);
    expect((await getMemory(SYSTEM, { id: victim.memory.id })).state).toBe("current");
    expect((await getMemory(SYSTEM, { id: own.id })).state).toBe("current");
  });
});
