/**
 * The list procedures the console's block-loaded lists read (decisions/0017): any block
 * of rows at any offset is exactly that slice of the whole list, every list says how many
 * rows it has, rows sharing a time keep one useful order, and the versions the console
 * polls move when — and only when — a listed row could read differently.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { offsetCursor } from "@/server/domain/paging";
import { sweepSilentHosts } from "@/server/domain/sources/tool-hosts";
import { callerFor, makeUser } from "../helpers/actors";
import { withTestDatabase } from "../helpers/db";
import { hostWith } from "../helpers/hosts";
import { simpleTool } from "../helpers/mcp-servers";

withTestDatabase();

async function operatorApi() {
  return callerFor((await makeUser("operator")).actor);
}
let k = 0;
const unique = (prefix: string) => `${prefix}${++k}${Math.random().toString(36).slice(2, 6)}`;
const tools = (names: string[]) => names.map((n) => simpleTool(n));
const pause = () => new Promise((r) => setTimeout(r, 5));

/** Every page of a list read `limit` rows at a time by offset, concatenated. */
async function readByOffset<T>(
  read: (page: { cursor?: string; limit: number }) => Promise<{ items: T[]; total: number }>,
  limit: number,
): Promise<T[]> {
  const out: T[] = [];
  for (;;) {
    const page = await read({ cursor: offsetCursor(out.length), limit });
    out.push(...page.items);
    if (page.items.length < limit || out.length >= page.total) return out;
  }
}

describe("Lost recently", () => {
  it("orders one check's losses by model-facing name, and every block at any offset is that slice of the whole list", async () => {
    const api = await operatorApi();
    const p = unique("lr");
    // Names whose insertion order differs from their alphabetical order.
    const first = [`${p}_m`, `${p}_c`, `${p}_x`, `${p}_a`, `${p}_q`, `${p}_f`, `${p}_k`, `${p}_b`];
    const { source, register } = await hostWith(tools(first));
    const { source: other } = await hostWith(tools([`${p}_other`]));
    const identity = await api.identities.create({ name: unique("lost-") });
    await api.identities.assignSource({ identityId: identity.id, sourceId: source.id });
    await pause();
    // Assignment events fall between the catalog's changes, so a page mixes the two.
    await api.identities.assignSource({ identityId: identity.id, sourceId: other.id });
    await pause();
    await register(tools(first.slice(0, 3)));
    await pause();
    await api.identities.unassignSource({ identityId: identity.id, sourceId: other.id });
    await pause();
    await register(tools([...first.slice(0, 3), `${p}_z`, `${p}_d`]));
    await pause();
    await register([]);

    const whole = await api.identities.losses({ id: identity.id, include: "all", limit: 500 });
    const label = (i: { reason: string; modelFacingName: string | null; sourceName: string }) =>
      `${i.reason}:${i.modelFacingName ?? i.sourceName}`;
    expect(whole.items.map(label)).toEqual([
      // The last registration removed everything left, in name order.
      `removed:${p}_c`,
      `removed:${p}_d`,
      `removed:${p}_m`,
      `removed:${p}_x`,
      `removed:${p}_z`,
      `added:${p}_d`,
      `added:${p}_z`,
      `source_unassigned:${other.name}`,
      `removed:${p}_a`,
      `removed:${p}_b`,
      `removed:${p}_f`,
      `removed:${p}_k`,
      `removed:${p}_q`,
      `source_assigned:${other.name}`,
      `source_assigned:${source.name}`,
    ]);
    expect(whole.total).toBe(15);

    for (const limit of [1, 2, 3, 4, 7])
      expect(
        (await readByOffset((page) => api.identities.losses({ id: identity.id, ...page }), limit)).map(label),
      ).toEqual(whole.items.map(label));
    for (let offset = 0; offset < 15; offset++) {
      const block = await api.identities.losses({ id: identity.id, cursor: offsetCursor(offset), limit: 4 });
      expect(block.items.map(label)).toEqual(whole.items.slice(offset, offset + 4).map(label));
      expect(block.total).toBe(15);
    }

    const lossesOnly = await api.identities.losses({ id: identity.id, include: "losses", limit: 500 });
    expect(lossesOnly.total).toBe(11);
    expect(lossesOnly.items.map(label)).toEqual(whole.items.filter((i) => i.direction === "lost").map(label));

    // Search narrows the list and its total, never the 30-day summary.
    const found = await api.identities.losses({ id: identity.id, include: "losses", search: `${p}_D`.toUpperCase() });
    expect(found.items.map(label)).toEqual([`removed:${p}_d`]);
    expect(found.total).toBe(1);
    expect(found.summary).toEqual(whole.summary);
    const bySource = await api.identities.losses({ id: identity.id, search: other.name });
    expect(bySource.items.map(label)).toEqual([`source_unassigned:${other.name}`, `source_assigned:${other.name}`]);
  });
});

describe("What one check changed", () => {
  it("counts its changes, reads any block by offset, searches by name, and still follows the cursors it hands out", async () => {
    const api = await operatorApi();
    const p = unique("cc");
    const names = Array.from({ length: 30 }, (_, i) => `${p}_${String(29 - i).padStart(2, "0")}`);
    const { source, register } = await hostWith(tools(names));
    await register(tools(names.slice(0, 10).concat([`${p}_new`])));
    const check = (await api.sources.checks({ id: source.id, limit: 1 })).items[0];
    if (!check) throw new Error("no check recorded");

    const whole = await api.sources.checkChanges({ checkId: check.id, limit: 500 });
    expect(whole.total).toBe(21);
    expect(whole.items.map((c) => `${c.kind}:${c.nativeName}`)).toEqual([
      `added:${p}_new`,
      ...names
        .slice(10)
        .sort()
        .map((n) => `removed:${n}`),
    ]);
    const byOffset = await readByOffset((page) => api.sources.checkChanges({ checkId: check.id, ...page }), 6);
    expect(byOffset.map((c) => c.id)).toEqual(whole.items.map((c) => c.id));
    const block = await api.sources.checkChanges({ checkId: check.id, cursor: offsetCursor(17), limit: 10 });
    expect(block.items.map((c) => c.id)).toEqual(whole.items.slice(17).map((c) => c.id));
    expect(block.nextCursor).toBeNull();

    // Automation that follows nextCursor from the first page gets every row once.
    const followed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.sources.checkChanges({ checkId: check.id, cursor, limit: 8 });
      followed.push(...page.items.map((c) => c.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(followed).toEqual(whole.items.map((c) => c.id));

    const searched = await api.sources.checkChanges({ checkId: check.id, search: `${p}_1` });
    expect(searched.items.map((c) => c.nativeName)).toEqual(
      names
        .slice(10)
        .filter((n) => n.startsWith(`${p}_1`))
        .sort(),
    );
    expect(searched.total).toBe(searched.items.length);
  });
});

describe("A Source's check history", () => {
  it("counts its checks and reads the same rows by offset as by following nextCursor, newest first", async () => {
    const api = await operatorApi();
    const p = unique("hist");
    const { source, register } = await hostWith(tools([`${p}_0`]));
    for (let i = 1; i < 7; i++) await register(tools([`${p}_${i}`]));
    const whole = await api.sources.checks({ id: source.id, limit: 200 });
    expect(whole.total).toBe(7);
    const started = whole.items.map((c) => c.startedAt.getTime());
    expect(started).toEqual([...started].sort((a, b) => b - a));
    const byOffset = await readByOffset((page) => api.sources.checks({ id: source.id, ...page }), 3);
    expect(byOffset.map((c) => c.id)).toEqual(whole.items.map((c) => c.id));
    const followed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.sources.checks({ id: source.id, cursor, limit: 2 });
      followed.push(...page.items.map((c) => c.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(followed).toEqual(whole.items.map((c) => c.id));
  });
});

describe("The audit log", () => {
  it("says how many events match, and reads the same rows by offset as by following nextCursor", async () => {
    const admin = callerFor((await makeUser("admin")).actor);
    const p = unique("audit");
    for (let i = 0; i < 9; i++) await hostWith([], `${p}-${i}`);
    const filter = { search: p };
    const followed: string[] = [];
    let cursor: string | undefined;
    let total = 0;
    do {
      const page = await admin.audit.list({ ...filter, cursor, limit: 4 });
      followed.push(...page.items.map((e) => e.id));
      total = page.total;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(total).toBeGreaterThanOrEqual(9);
    expect(followed).toHaveLength(total);
    const byOffset = await readByOffset((page) => admin.audit.list({ ...filter, ...page }), 4);
    expect(byOffset.map((e) => e.id)).toEqual(followed);
    const block = await admin.audit.list({ ...filter, cursor: offsetCursor(5), limit: 3 });
    expect(block.items.map((e) => e.id)).toEqual(followed.slice(5, 8));
    expect(block.total).toBe(total);
  });
});

describe("The call log", () => {
  it("orders calls newest first, those of one moment by id, and reads the same rows by offset as by nextCursor", async () => {
    const viewer = callerFor((await makeUser("viewer")).actor);
    const identityId = unique("calls-identity-");
    const db = await getDb();
    const moment = new Date(Date.now() - 60_000);
    // Calls that share their start (a burst within one millisecond) with others before and after.
    const starts = [0, 0, 0, 0, 0, 1, 1, 2, 3, 3, 3].map((ms) => new Date(moment.getTime() + ms));
    await db.callLog.createMany({
      data: starts.map((startedAt, i) => ({
        startedAt,
        durationMs: i,
        identityId,
        identityName: identityId,
        toolName: `tool_${i}`,
        outcome: "ok" as const,
        bytesIn: 2,
        bytesOut: 2,
      })),
    });
    const whole = await viewer.calls.list({ identityId, limit: 500 });
    expect(whole.total).toBe(starts.length);
    const times = whole.items.map((c) => c.startedAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (let i = 1; i < whole.items.length; i++) {
      const [a, b] = [whole.items[i - 1], whole.items[i]];
      if (a && b && a.startedAt.getTime() === b.startedAt.getTime()) expect(a.id > b.id).toBe(true);
    }
    const ids = whole.items.map((c) => c.id);
    for (let offset = 0; offset < ids.length; offset++) {
      const block = await viewer.calls.list({ identityId, cursor: offsetCursor(offset), limit: 3 });
      expect(block.items.map((c) => c.id)).toEqual(ids.slice(offset, offset + 3));
      expect(block.total).toBe(ids.length);
    }
    const followed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await viewer.calls.list({ identityId, cursor, limit: 4 });
      followed.push(...page.items.map((c) => c.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(followed).toEqual(ids);
  });
});

describe("List versions", () => {
  it("move when a held or listed Tool could read differently, and stay put otherwise", async () => {
    const api = await operatorApi();
    const p = unique("ver");
    const { source, register } = await hostWith(tools([`${p}_a`, `${p}_b`]));
    const identity = await api.identities.create({ name: unique("ver-") });
    await api.identities.assignSource({ identityId: identity.id, sourceId: source.id });
    const versions = async () => ({
      holdings: (await api.identities.get({ id: identity.id })).holdingsVersion,
      catalog: (await api.catalog.facets()).version,
    });

    const start = await versions();
    expect(start.holdings).toMatch(/^[\w-]{16,}$/);
    // Reading, and a registration that changes nothing, leave both where they are.
    await register(tools([`${p}_a`, `${p}_b`]));
    expect(await versions()).toEqual(start);

    let last = start;
    const expectMoved = async (what: string) => {
      const now = await versions();
      expect(now.holdings, what).not.toBe(last.holdings);
      expect(now.catalog, what).not.toBe(last.catalog);
      last = now;
    };
    await register(tools([`${p}_a`, `${p}_c`]));
    await expectMoved("a registration that changed the catalog");
    await api.sources.update({ id: source.id, name: `${p}-renamed` });
    await expectMoved("a rename of the Source its rows name");
    await sweepSilentHosts(new Date(Date.now() + 61_000));
    await expectMoved("its SDK host going silent");
    await register(tools([`${p}_a`, `${p}_c`]));
    await expectMoved("its SDK host coming back");

    // Another identity's version ignores Sources it does not hold; an unassignment moves its own.
    const { source: unrelated } = await hostWith(tools([`${p}_u`]));
    const before = (await api.identities.get({ id: identity.id })).holdingsVersion;
    expect((await api.identities.get({ id: identity.id })).holdingsVersion).toBe(before);
    await api.identities.assignSource({ identityId: identity.id, sourceId: unrelated.id });
    const assigned = (await api.identities.get({ id: identity.id })).holdingsVersion;
    expect(assigned).not.toBe(before);
    await api.identities.unassignSource({ identityId: identity.id, sourceId: unrelated.id });
    expect((await api.identities.get({ id: identity.id })).holdingsVersion).toBe(before);
  });
});
