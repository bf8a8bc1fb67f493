/**
 * The resource-link evidence (issue 31, docs/decisions/0091): when `search` or `briefing`
 * hands an agent a memory truncated, with a link to `qm://memory/{id}`, does the agent go
 * on to read it in full — by the link, or with `get_memories` — and which clients do? The
 * answer decides whether `get_memories` could ever be retired; nothing is retired on it.
 *
 * One row per token and memory: a repeated search refreshes its offer instead of adding
 * one, and a memory once read stays counted as followed (its body never changes, so a
 * client that caches it need not read it again). Reads count only by the same identity and
 * token, within MEMORY_LINK_FOLLOW_MINUTES of the offer. Recording never fails the request.
 */
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { LIMITS } from "../../limits";
import { log } from "../../log";
import { type ClientOf, sweepTokenClients } from "../agent-tools/mcp-client";
import { ZIdentityIdInput } from "../identities/schemas";
import { operation } from "../operation";

export type OfferedVia = "search" | "briefing";
export type FollowedBy = "resource" | "get_memories";

const windowStart = (now: Date) => new Date(now.getTime() - LIMITS.MEMORY_LINK_FOLLOW_MINUTES.value * 60_000);

/** An agent's token is the one a follow must come from: only agents leave evidence. */
function agentOf(actor: Actor) {
  return actor.kind === "agent" ? actor : null;
}

/** `memoryIds` went to the agent truncated, each with a link to its full body. */
export async function recordTruncatedOffers(
  actor: Actor,
  client: ClientOf,
  via: OfferedVia,
  memoryIds: string[],
  now = new Date(),
): Promise<void> {
  const agent = agentOf(actor);
  const ids = [...new Set(memoryIds)];
  if (!agent || !ids.length) return;
  try {
    const named = await client();
    const db = await getDb();
    await db.$executeRaw`
      INSERT INTO memory_link_offer ("tokenId", "memoryId", "identityId", "clientName", "clientVersion", via, "offeredAt")
      SELECT ${agent.tokenId}, id, ${agent.identityId}, ${named?.name ?? ""}, ${named?.version ?? ""}, ${via}, ${now}
        FROM json_array_elements_text(${JSON.stringify(ids)}::json) AS ids(id)
      ON CONFLICT ("tokenId", "memoryId") DO UPDATE
        SET "offeredAt" = EXCLUDED."offeredAt", via = EXCLUDED.via, "identityId" = EXCLUDED."identityId",
            "clientName" = EXCLUDED."clientName", "clientVersion" = EXCLUDED."clientVersion"`;
  } catch (error) {
    log.warn({ err: error }, "truncated memory returns could not be recorded for the link evidence");
  }
}

/** The agent read `memoryIds` in full: those it was offered truncated in the window count as followed. */
export async function recordFollows(actor: Actor, by: FollowedBy, memoryIds: string[], now = new Date()) {
  const agent = agentOf(actor);
  if (!agent || !memoryIds.length) return;
  try {
    const db = await getDb();
    await db.memoryLinkOffer.updateMany({
      where: {
        tokenId: agent.tokenId,
        identityId: agent.identityId,
        memoryId: { in: [...new Set(memoryIds)] },
        followedAt: null,
        offeredAt: { gte: windowStart(now), lte: now },
      },
      data: { followedAt: now, followedBy: by },
    });
  } catch (error) {
    log.warn({ err: error }, "a full memory read could not be recorded for the link evidence");
  }
}

export interface ClientFollowRate {
  clientName: string;
  clientVersion: string;
  /** Memories returned truncated (one per token and memory) in the evidence kept. */
  offered: number;
  followed: number;
  byResource: number;
  byGetMemories: number;
  /** Not followed yet but still within the window: left out of the rate until it closes. */
  open: number;
  /** followed / (offered − open), or null while nothing has been decided. */
  rate: number | null;
  lastOfferedAt: Date;
}

/** Per MCP client (name and version) of one identity: how often a truncated memory was read in full. */
export const listLinkFollowRates = operation({ role: "viewer", input: ZIdentityIdInput }, async (_actor, { id }) => {
  const db = await getDb();
  const rows = await db.$queryRaw<Omit<ClientFollowRate, "rate">[]>`
    SELECT "clientName", "clientVersion",
           count(*)::int AS offered,
           count("followedAt")::int AS followed,
           (count(*) FILTER (WHERE "followedBy" = 'resource'))::int AS "byResource",
           (count(*) FILTER (WHERE "followedBy" = 'get_memories'))::int AS "byGetMemories",
           (count(*) FILTER (WHERE "followedAt" IS NULL AND "offeredAt" >= ${windowStart(new Date())}))::int AS open,
           max("offeredAt") AS "lastOfferedAt"
      FROM memory_link_offer
     WHERE "identityId" = ${id}
     GROUP BY "clientName", "clientVersion"
     ORDER BY offered DESC, "clientName", "clientVersion"`;
  return {
    windowMinutes: LIMITS.MEMORY_LINK_FOLLOW_MINUTES.value,
    keptDays: LIMITS.MEMORY_LINK_EVIDENCE_DAYS.value,
    clients: rows.map((r) => {
      const decided = r.offered - r.open;
      return { ...r, rate: decided > 0 ? r.followed / decided : null };
    }),
  };
});

/**
 * Keeps the evidence bounded: older than MEMORY_LINK_EVIDENCE_DAYS goes, then the oldest past
 * MEMORY_LINK_EVIDENCE_ROWS; and the clients tokens introduced that long ago.
 */
export async function sweepLinkEvidence(
  now = new Date(),
  keep = { days: LIMITS.MEMORY_LINK_EVIDENCE_DAYS.value, rows: LIMITS.MEMORY_LINK_EVIDENCE_ROWS.value },
): Promise<{ aged: number; over: number; clients: number }> {
  const db = await getDb();
  const before = new Date(now.getTime() - keep.days * 86_400_000);
  const aged = (await db.memoryLinkOffer.deleteMany({ where: { offeredAt: { lt: before } } })).count;
  const over = await db.$executeRaw`
    DELETE FROM memory_link_offer WHERE ("tokenId", "memoryId") IN (
      SELECT "tokenId", "memoryId" FROM memory_link_offer
       ORDER BY "offeredAt" DESC, "tokenId", "memoryId" OFFSET ${keep.rows})`;
  return { aged, over, clients: await sweepTokenClients(before) };
}
