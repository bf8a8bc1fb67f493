import { fmt, fmtBytes } from "@/universal/format";
import { getDb } from "../../db";
import type { Tx } from "../../db/types";
import { DomainError, notFound } from "../../errors";
import { announce } from "../../events";
import { LIMITS } from "../../limits";
import { planListing } from "../agent-tools/exposure";
import { recordAudit } from "../audit/record";
import { utf8Bytes } from "../catalog/canonical";
import { catalogVersionOf } from "../catalog/version";
import { operation } from "../operation";
import { budgetOf, identityTotals, makeBudget, planningEstimate, stateOf } from "./budget";
import { recordBudgetSnapshots } from "./budget-history";
import { REFERENCE_BYTES } from "./reference-tools";
import { identityRowHealth } from "./row-health";
import {
  ZAssignmentInput,
  ZCreateIdentityInput,
  ZIdentityIdInput,
  ZListIdentitiesInput,
  ZUpdateIdentityInput,
} from "./schemas";
import { evictAgentTokens } from "./token-cache";

async function assertNameFree(tx: Tx, name: string, exceptId?: string) {
  const taken = await tx.agentIdentity.findFirst({
    where: { name: { equals: name, mode: "insensitive" }, id: exceptId ? { not: exceptId } : undefined },
    select: { id: true },
  });
  if (taken)
    throw new DomainError("CONFLICT", `name: an Agent Identity named "${name}" already exists.`, { field: "name" });
}

function budgetExceeded(what: string, projected: number): DomainError {
  const limit = LIMITS.IDENTITY_BUDGET_BYTES.value;
  return new DomainError(
    "BUDGET_EXCEEDED",
    `${what} would take the identity to ${fmtBytes(projected)}, ${fmtBytes(projected - limit)} over its ${fmtBytes(limit)} budget.`,
    { projectedBytes: projected, limitBytes: limit, overByBytes: projected - limit },
  );
}

/** Serializes changes to one identity's assignments and instructions. */
async function lockIdentity(tx: Tx, id: string) {
  const rows = await tx.$queryRaw<
    { id: string; name: string }[]
  >`SELECT id, name FROM agent_identity WHERE id = ${id} FOR UPDATE`;
  if (!rows[0]) throw notFound("Agent Identity");
  return rows[0];
}

export const createIdentity = operation({ role: "operator", input: ZCreateIdentityInput }, async (actor, input) => {
  const instructions = input.instructions ?? "";
  const instructionsBytes = utf8Bytes(instructions);
  if (instructionsBytes > LIMITS.IDENTITY_BUDGET_BYTES.value)
    throw budgetExceeded("These instructions", instructionsBytes);
  const db = await getDb();
  const result = await db.$transaction(async (tx) => {
    await assertNameFree(tx, input.name);
    const identity = await tx.agentIdentity.create({
      data: { name: input.name, description: input.description ?? "", instructions, instructionsBytes },
    });
    await recordAudit(tx, actor, {
      action: "identity.create",
      targetType: "identity",
      targetId: identity.id,
      targetLabel: identity.name,
    });
    announce("identity"); // (before the commit: a call in that instant may see the old state for CALL_ROUTE_CACHE_MS)
    return identity;
  });
  // After the transaction: on the embedded database a query beside it would wait for it.
  await recordBudgetSnapshots([result.id]);
  return result;
});

export const updateIdentity = operation({ role: "operator", input: ZUpdateIdentityInput }, async (actor, input) => {
  const db = await getDb();
  const result = await db.$transaction(async (tx) => {
    await lockIdentity(tx, input.id);
    const before = await tx.agentIdentity.findUniqueOrThrow({ where: { id: input.id } });
    if (input.name && input.name.toLowerCase() !== before.name.toLowerCase())
      await assertNameFree(tx, input.name, input.id);
    let instructionsBytes: number | undefined;
    if (input.instructions !== undefined) {
      instructionsBytes = utf8Bytes(input.instructions);
      const budget = await budgetOf(input.id, tx);
      const projected = (budget?.toolsBytes ?? 0) + instructionsBytes;
      // Shortening instructions is always allowed, even for an identity already over budget.
      if (projected > LIMITS.IDENTITY_BUDGET_BYTES.value && instructionsBytes > before.instructionsBytes) {
        throw budgetExceeded("These instructions", projected);
      }
    }
    const identity = await tx.agentIdentity.update({
      where: { id: input.id },
      data: {
        name: input.name,
        description: input.description,
        instructions: input.instructions,
        instructionsBytes,
        exposure: input.exposure,
        listingBudgetBytes: input.listingBudgetBytes,
      },
    });
    const changed: Record<string, unknown> = {};
    if (input.name !== undefined && input.name !== before.name) changed.name = { from: before.name, to: identity.name };
    if (input.description !== undefined && input.description !== before.description) changed.description = true;
    if (input.instructions !== undefined && input.instructions !== before.instructions)
      changed.instructionsBytes = { from: before.instructionsBytes, to: identity.instructionsBytes };
    if (input.exposure !== undefined && input.exposure !== before.exposure)
      changed.exposure = { from: before.exposure, to: identity.exposure };
    if (input.listingBudgetBytes !== undefined && input.listingBudgetBytes !== before.listingBudgetBytes)
      changed.listingBudgetBytes = { from: before.listingBudgetBytes, to: identity.listingBudgetBytes };
    if (Object.keys(changed).length) {
      await recordAudit(tx, actor, {
        action: "identity.update",
        targetType: "identity",
        targetId: identity.id,
        targetLabel: identity.name,
        details: changed as never,
      });
    }
    return identity;
  });
  // After the transaction: on the embedded database a query beside it would wait for it.
  await recordBudgetSnapshots([input.id]);
  return result;
});

export const deleteIdentity = operation({ role: "operator", input: ZIdentityIdInput }, async (actor, { id }) => {
  const db = await getDb();
  await db.$transaction(async (tx) => {
    const identity = await lockIdentity(tx, id);
    await tx.agentIdentity.delete({ where: { id } });
    await recordAudit(tx, actor, {
      action: "identity.delete",
      targetType: "identity",
      targetId: id,
      targetLabel: identity.name,
    });
  });
  evictAgentTokens({ identityId: id });
  announce("identity");
});

type SourceFacts = {
  id: string;
  name: string;
  kind: string;
  modelFacingBytes: number;
  compatibleToolCount: number;
  hostSilentSince: Date | null;
};

async function sourceFacts(tx: Tx, sourceId: string): Promise<SourceFacts> {
  const source = await tx.source.findUnique({
    where: { id: sourceId },
    select: {
      id: true,
      name: true,
      kind: true,
      modelFacingBytes: true,
      compatibleToolCount: true,
      hostSilentSince: true,
    },
  });
  if (!source) throw notFound("Source");
  return source;
}

/** What assigning a Source would do to the identity's budget, before anything is saved. */
export const previewAssignment = operation({ role: "viewer", input: ZAssignmentInput }, async (_actor, input) => {
  const db = await getDb();
  const source = await sourceFacts(db, input.sourceId);
  const budget = await budgetOf(input.identityId);
  if (!budget) throw notFound("Agent Identity");
  const already = await db.sourceAssignment.findUnique({ where: { identityId_sourceId: input } });
  const adds = already || source.hostSilentSince ? 0 : source.modelFacingBytes;
  const projected = makeBudget(budget.toolsBytes + adds, budget.instructionsBytes);
  return {
    current: budget,
    projected,
    addsBytes: adds,
    addsTools: already || source.hostSilentSince ? 0 : source.compatibleToolCount,
    alreadyAssigned: Boolean(already),
    fits: projected.overByBytes === 0 || adds === 0,
  };
});

export const assignSource = operation({ role: "operator", input: ZAssignmentInput }, async (actor, input) => {
  const db = await getDb();
  const result = await db.$transaction(async (tx) => {
    const identity = await lockIdentity(tx, input.identityId);
    // Locking the Source too keeps the per-Connection ceiling exact under concurrent assignments.
    await tx.$queryRaw`SELECT id FROM source WHERE id = ${input.sourceId} FOR UPDATE`;
    const source = await sourceFacts(tx, input.sourceId);
    if (await tx.sourceAssignment.findUnique({ where: { identityId_sourceId: input } })) return { assigned: false };

    if (source.kind === "mcp_connection") {
      const ceiling = LIMITS.IDENTITIES_PER_CONNECTION.value;
      const count = await tx.sourceAssignment.count({ where: { sourceId: source.id } });
      if (count >= ceiling) {
        throw new DomainError(
          "TOO_MANY_IDENTITIES",
          `"${source.name}" is already assigned to ${fmt(count)} Agent Identities, the most one MCP Connection may serve (${fmt(ceiling)}). Create a second Connection to the same server for more.`,
          { measured: count, limit: ceiling },
        );
      }
    }
    const budget = await budgetOf(identity.id, tx);
    const adds = source.hostSilentSince ? 0 : source.modelFacingBytes;
    const projected = (budget?.usedBytes ?? 0) + adds;
    if (adds > 0 && projected > LIMITS.IDENTITY_BUDGET_BYTES.value)
      throw budgetExceeded(`Assigning "${source.name}"`, projected);

    const at = new Date();
    await tx.sourceAssignment.create({ data: { ...input, assignedAt: at } });
    await tx.assignmentEvent.create({
      data: {
        identityId: identity.id,
        sourceId: source.id,
        sourceName: source.name,
        kind: "assigned",
        at,
        toolCount: source.hostSilentSince ? 0 : source.compatibleToolCount,
        bytes: adds,
      },
    });
    await recordAudit(tx, actor, {
      action: "identity.assign_source",
      targetType: "identity",
      targetId: identity.id,
      targetLabel: identity.name,
      details: { sourceId: source.id, sourceName: source.name, tools: source.compatibleToolCount, bytes: adds },
    });
    announce("assignment");
    return { assigned: true };
  });
  // After the transaction: on the embedded database a query beside it would wait for it.
  await recordBudgetSnapshots([input.identityId]);
  return result;
});

export const unassignSource = operation({ role: "operator", input: ZAssignmentInput }, async (actor, input) => {
  const db = await getDb();
  const result = await db.$transaction(async (tx) => {
    const identity = await lockIdentity(tx, input.identityId);
    const source = await sourceFacts(tx, input.sourceId);
    const removed = await tx.sourceAssignment.deleteMany({ where: input });
    if (removed.count === 0) return { unassigned: false };
    const at = new Date();
    const lost = source.hostSilentSince ? 0 : source.compatibleToolCount;
    await tx.assignmentEvent.create({
      data: {
        identityId: identity.id,
        sourceId: source.id,
        sourceName: source.name,
        kind: "unassigned",
        at,
        toolCount: lost,
        bytes: source.hostSilentSince ? 0 : source.modelFacingBytes,
      },
    });
    await recordAudit(tx, actor, {
      action: "identity.unassign_source",
      targetType: "identity",
      targetId: identity.id,
      targetLabel: identity.name,
      details: { sourceId: source.id, sourceName: source.name, tools: lost },
    });
    announce("assignment");
    return { unassigned: true };
  });
  // After the transaction: on the embedded database a query beside it would wait for it.
  await recordBudgetSnapshots([input.identityId]);
  return result;
});

export const listIdentities = operation({ role: "viewer", input: ZListIdentitiesInput }, async (_actor, input) => {
  const rows = await identityTotals({ search: input.search, sourceId: input.sourceId });
  const health = await identityRowHealth(rows.map((r) => r.id));
  const items = rows.map((r) => {
    const budget = makeBudget(r.toolsBytes, r.instructionsBytes);
    const h = health.get(r.id);
    return {
      /** Tools lost in the last LOSSES_WINDOW_DAYS days (the window Lost recently shows), counted as Lost recently counts them. */
      lostTools: h?.lostTools ?? 0,
      failingSources: h?.failingSources ?? [],
      id: r.id,
      name: r.name,
      description: r.description,
      sources: r.sources,
      tools: r.tools,
      budget,
      state: stateOf(budget),
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  });
  return input.state ? items.filter((i) => i.state === input.state) : items;
});

/** Why an over-budget identity is over, and the single unassignments that would fix it. */
async function overBudgetAnalysis(
  overByBytes: number,
  sources: { sourceId: string; name: string; bytes: number; assignedAt: Date }[],
) {
  const db = await getDb();
  const remedies = sources
    .filter((s) => s.bytes >= overByBytes)
    .sort((a, b) => a.bytes - b.bytes)
    .map((s) => ({ sourceId: s.sourceId, sourceName: s.name, freesBytes: s.bytes }));
  const growth = await db.catalogChange.findFirst({
    where: {
      kind: { in: ["added", "changed", "became_compatible", "restored"] },
      modelFacingName: { not: null },
      OR: sources.map((s) => ({ sourceId: s.sourceId, at: { gte: s.assignedAt } })),
    },
    orderBy: { at: "desc" },
    select: { sourceId: true, sourceName: true, at: true, checkId: true, kind: true },
  });
  let pushedBy = null;
  if (growth) {
    const count = await db.catalogChange.count({
      where: {
        sourceId: growth.sourceId,
        at: growth.at,
        kind: { in: ["added", "changed", "became_compatible", "restored"] },
      },
    });
    pushedBy = {
      sourceId: growth.sourceId,
      sourceName: growth.sourceName,
      at: growth.at,
      changedTools: count,
      // A silent SDK host coming back is not a catalog that grew; the console words them apart.
      reason: growth.kind === "restored" ? ("host_back" as const) : ("catalog_grew" as const),
    };
  }
  return { overByBytes, pushedBy, remedies };
}

async function listingOf(id: string) {
  const plan = await planListing(id);
  const db = await getDb();
  const pins = await db.toolPin.findMany({
    where: { identityId: id },
    orderBy: [{ pinnedAt: "asc" }, { modelFacingName: "asc" }],
    select: { modelFacingName: true },
  });
  return {
    exposure: plan.exposure,
    mode: plan.mode,
    budgetBytes: plan.budgetBytes,
    defaultBudgetBytes: LIMITS.LISTING_BUDGET_BYTES.value,
    heldTools: plan.heldTools,
    heldBytes: plan.heldBytes,
    listedTools: plan.mode === "all" ? plan.heldTools : (plan.names?.length ?? 0),
    listedBytes: plan.listedBytes,
    pinned: pins.map((p) => p.modelFacingName),
  };
}

export const getIdentity = operation({ role: "viewer", input: ZIdentityIdInput }, async (_actor, { id }) => {
  const db = await getDb();
  const identity = await db.agentIdentity.findUnique({ where: { id } });
  if (!identity) throw notFound("Agent Identity");
  const assignments = await db.sourceAssignment.findMany({
    where: { identityId: id },
    select: {
      assignedAt: true,
      source: {
        select: {
          id: true,
          name: true,
          kind: true,
          modelFacingBytes: true,
          compatibleToolCount: true,
          toolCount: true,
          hostSilentSince: true,
          failingSince: true,
          lastCheckAt: true,
          catalogVersion: true,
        },
      },
    },
  });
  const sources = assignments
    .map((a) => {
      const held = !a.source.hostSilentSince;
      return {
        sourceId: a.source.id,
        name: a.source.name,
        kind: a.source.kind,
        assignedAt: a.assignedAt,
        tools: held ? a.source.compatibleToolCount : 0,
        bytes: held ? a.source.modelFacingBytes : 0,
        catalogTools: a.source.toolCount,
        withdrawn: !held,
        failing: Boolean(a.source.failingSince),
      };
    })
    .sort((a, b) => b.bytes - a.bytes);
  const toolsBytes = sources.reduce((n, s) => n + s.bytes, 0);
  const budget = makeBudget(toolsBytes, identity.instructionsBytes);
  const heldSourceIds = sources.filter((s) => !s.withdrawn).map((s) => s.sourceId);
  const largestTools = heldSourceIds.length
    ? await db.tool.findMany({
        where: { sourceId: { in: heldSourceIds }, compatibility: "compatible" },
        orderBy: { modelFacingBytes: "desc" },
        take: 10,
        select: {
          id: true,
          nativeName: true,
          modelFacingName: true,
          modelFacingBytes: true,
          source: { select: { name: true } },
        },
      })
    : [];
  const state = stateOf(budget);
  return {
    id: identity.id,
    name: identity.name,
    description: identity.description,
    instructions: identity.instructions,
    createdAt: identity.createdAt,
    updatedAt: identity.updatedAt,
    state,
    budget,
    /** What tools/list offers it now: held vs listed, under its exposure and listing budget. */
    listing: await listingOf(id),
    tools: sources.reduce((n, s) => n + s.tools, 0),
    sources,
    /** Moves whenever a held Tool could read differently: the console refetches Holdings only then. */
    holdingsVersion: catalogVersionOf(assignments.map((a) => a.source)),
    largestTools: largestTools.map((t) => ({
      id: t.id,
      nativeName: t.nativeName,
      modelFacingName: t.modelFacingName,
      bytes: t.modelFacingBytes,
      sourceName: t.source.name,
    })),
    estimate: planningEstimate(budget),
    referenceToolBytes: REFERENCE_BYTES,
    overBudget:
      state === "over_budget"
        ? await overBudgetAnalysis(
            budget.overByBytes,
            sources.map((s) => ({ sourceId: s.sourceId, name: s.name, bytes: s.bytes, assignedAt: s.assignedAt })),
          )
        : null,
  };
});
