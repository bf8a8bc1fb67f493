/**
 * Where a memory came from (docs/decisions/0089): the way the write reached Quartermaster,
 * the token, API key or console session behind it, and for an agent the Tool Call (call log
 * id) and the MCP client that made it. Recorded with every write; a memory written before
 * this was recorded keeps nulls, which every reader shows as unknown rather than guessing.
 */
import type { Actor } from "../../actor";
import type { WRITTEN_VIA } from "./schemas";

export type WrittenVia = (typeof WRITTEN_VIA)[number];

export interface Provenance {
  writtenVia: WrittenVia;
  authorTokenId: string | null;
  callId: string | null;
  clientName: string | null;
  clientVersion: string | null;
}

/** The provenance of a write `actor` makes now. */
export function provenanceOf(actor: Actor): Provenance {
  const none = { callId: null, clientName: null, clientVersion: null };
  switch (actor.kind) {
    case "user":
      return { writtenVia: "console", authorTokenId: actor.sessionId ? `session:${actor.sessionId}` : null, ...none };
    case "api_key":
      return { writtenVia: "api", authorTokenId: `api_key:${actor.id}`, ...none };
    case "agent": {
      // Found before the transaction (mcp-client.ts): for a 2025-era tools/call, which names
      // no client, the one its token's initialize introduced.
      const client = actor.call?.client ?? null;
      return {
        writtenVia: "mcp",
        authorTokenId: actor.tokenId,
        callId: actor.call?.id ?? null,
        clientName: client?.name ?? null,
        clientVersion: client?.version ?? null,
      };
    }
    default:
      return { writtenVia: "system", authorTokenId: null, ...none };
  }
}
