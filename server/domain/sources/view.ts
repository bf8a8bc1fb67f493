import type { Prisma } from "../../db/types";
import { storedFailure } from "../catalog/failures";

/** The columns any caller may see: never header values or token hashes. */
export const SOURCE_PUBLIC = {
  id: true,
  kind: true,
  name: true,
  description: true,
  url: true,
  headerNames: true,
  checkIntervalSeconds: true,
  hostTokenPrefix: true,
  hostSoftware: true,
  heartbeatTimeoutSeconds: true,
  lastHeartbeatAt: true,
  hostSilentSince: true,
  pausedAt: true,
  lastCheckAt: true,
  lastSuccessAt: true,
  failingSince: true,
  lastFailureCode: true,
  lastFailureMessage: true,
  lastFailureDetails: true,
  toolCount: true,
  compatibleToolCount: true,
  modelFacingBytes: true,
  definitionBytes: true,
  nextCheckAt: true,
  protocolVersion: true,
  callPolicy: true,
  reviewPolicy: true,
  leaseUntil: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.SourceSelect;

export type SourceRow = Prisma.SourceGetPayload<{ select: typeof SOURCE_PUBLIC }>;

/**
 * A Source's catalog state at a glance. `failing` wins over `ok` only while the last
 * attempt failed; a silent host is `host_silent` even if its last registration was fine.
 */
export type CatalogState = "never_checked" | "ok" | "failing" | "host_silent";

export function catalogState(
  s: Pick<SourceRow, "kind" | "lastCheckAt" | "failingSince" | "hostSilentSince">,
): CatalogState {
  if (s.kind === "sdk_tool_host" && s.hostSilentSince) return "host_silent";
  if (!s.lastCheckAt) return "never_checked";
  return s.failingSince ? "failing" : "ok";
}

export function sourceView(row: SourceRow) {
  return {
    ...row,
    catalogState: catalogState(row),
    paused: Boolean(row.pausedAt),
    checking: Boolean(row.leaseUntil && row.leaseUntil.getTime() > Date.now()),
    lastFailure: storedFailure(row.lastFailureCode, row.lastFailureMessage, row.lastFailureDetails),
  };
}
export type SourceView = ReturnType<typeof sourceView>;
