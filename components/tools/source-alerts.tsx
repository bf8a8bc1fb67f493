"use client";

import { Lightbulb } from "lucide-react";
import { Callout } from "@/components/ui/callout";
import { formatCount, formatDateTime, formatRelative } from "@/components/ui/format";
import { useNow } from "@/components/ui/use-now";
import { failureCodeDescription, failureFacts, failureHint } from "./labels";
import type { SourceView } from "./types";

/**
 * Why the catalog is not current, what was measured against which limit, and the
 * reassurance operators need most: the previous catalog is still what agents see.
 */
export function FailureAlert({ source }: { source: SourceView }) {
  const now = useNow();
  const failure = source.lastFailure;
  if (!failure || !source.failingSince) return null;
  const facts = failureFacts(failure.details);
  const hint = failureHint(failure.code, failure.details);
  const isHost = source.kind === "sdk_tool_host";
  return (
    <Callout
      tone="danger"
      data-testid="last-failure"
      className="mb-6"
      title={
        <>
          Failing since {formatRelative(source.failingSince, now)}{" "}
          <span className="font-normal text-fg">({formatDateTime(source.failingSince)})</span>
        </>
      }
    >
      <p className="mb-1">
        <code className="rounded bg-surface px-1.5 py-0.5 font-mono text-xs font-semibold">{failure.code}</code>{" "}
        <span className="text-muted">{failureCodeDescription(failure.code)}</span>
      </p>
      <p className="[overflow-wrap:anywhere]">{failure.message}</p>
      {facts.length > 0 && <p className="mt-1 font-medium [overflow-wrap:anywhere]">{facts.join(" · ")}</p>}
      {hint && (
        <p className="mt-2 flex gap-1.5" data-testid="failure-hint">
          <Lightbulb className="mt-0.5 size-4 shrink-0 text-warn" aria-hidden />
          <span>
            <strong>What to try:</strong> {hint}
          </span>
        </p>
      )}
      <p className="mt-2">
        {source.lastSuccessAt ? (
          <>
            The previous catalog is still active: <strong>{formatCount(source.toolCount)} Tools</strong> still listed,
            from the last {isHost ? "registration" : "successful check"} {formatRelative(source.lastSuccessAt, now)}.
            Nothing was dropped.
          </>
        ) : (
          <>
            This Source has never {isHost ? "registered" : "been checked"} successfully, so it publishes no Tools yet.
          </>
        )}
      </p>
    </Callout>
  );
}

export function HostSilentAlert({ source }: { source: SourceView }) {
  const now = useNow();
  if (source.catalogState !== "host_silent" || !source.hostSilentSince) return null;
  return (
    <Callout
      tone="warn"
      className="mb-6"
      title={`Host silent since ${formatRelative(source.hostSilentSince, now)} (${formatDateTime(source.hostSilentSince)})`}
    >
      No heartbeat for longer than its timeout: its {formatCount(source.toolCount)} Tools are withdrawn and offered to
      no Agent Identity until the host sends a heartbeat or registers again. They stay in the catalog.
    </Callout>
  );
}
