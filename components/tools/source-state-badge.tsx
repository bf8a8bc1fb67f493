"use client";

import { Loader2, PauseCircle } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { formatDateTime, formatRelative } from "@/components/ui/format";
import { useNow } from "@/components/ui/use-now";
import type { SourceView } from "./types";

type StateFields = Pick<SourceView, "kind" | "catalogState" | "failingSince" | "hostSilentSince" | "lastSuccessAt">;

/** A Source's catalog state at a glance; the tooltip carries the exact time. */
export function SourceStateBadge({ source, testId }: { source: StateFields; testId?: string }) {
  const now = useNow();
  const { catalogState: state } = source;
  const title =
    state === "ok"
      ? `Last success ${formatDateTime(source.lastSuccessAt)}`
      : state === "failing"
        ? `Failing since ${formatDateTime(source.failingSince)}`
        : state === "host_silent"
          ? `Host silent since ${formatDateTime(source.hostSilentSince)}`
          : undefined;
  return (
    <span data-testid={testId} data-state={state} title={title} className="inline-flex">
      {state === "ok" ? (
        <Badge tone="ok">OK</Badge>
      ) : state === "failing" ? (
        <Badge tone="danger">Failing since {formatRelative(source.failingSince, now)}</Badge>
      ) : state === "host_silent" ? (
        <Badge tone="warn">Host silent since {formatRelative(source.hostSilentSince, now)}</Badge>
      ) : (
        // A host that has not registered yet was never "checked": say what it waits for.
        <Badge>{source.kind === "sdk_tool_host" ? "Never registered" : "Never checked"}</Badge>
      )}
    </span>
  );
}

export function PausedBadge({ kind }: { kind: "mcp_connection" | "sdk_tool_host" }) {
  const why =
    kind === "mcp_connection"
      ? "Scheduled checks are paused; Check now still works."
      : "Registrations are refused until it is resumed; heartbeats still count.";
  return (
    <span title={why} className="inline-flex">
      <Badge>
        <PauseCircle className="size-3" aria-hidden /> Paused
      </Badge>
    </span>
  );
}

export function CheckingBadge() {
  return (
    <Badge tone="accent">
      <Loader2 className="size-3 animate-spin" aria-hidden /> Checking…
    </Badge>
  );
}
