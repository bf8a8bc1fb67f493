"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, Loader2, OctagonAlert, RefreshCw } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { formatBytes, formatCount } from "@/components/ui/format";
import { errorMessage } from "@/components/ui/use-error";
import { useNow } from "@/components/ui/use-now";
import { formatElapsed } from "./labels";
import type { SourceView } from "./types";

// The first progress poll waits a moment: tRPC batches calls made in the same tick, and a
// poll batched with checkNow would only be answered when the whole check is over.
const FIRST_POLL_DELAY_MS = 300;
const POLL_MS = 500;

/** "Check now" and the live state of whatever check is running (ours or the scheduler's). */
export function useCheckNow(source: Pick<SourceView, "id" | "checking">) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const startedAt = useRef(0);
  const check = useMutation(
    trpc.sources.checkNow.mutationOptions({
      onMutate: () => {
        startedAt.current = Date.now();
        // Counts left from the previous check must not show as this one's progress.
        queryClient.setQueryData(trpc.sources.checkProgress.queryKey({ id: source.id }), null);
      },
      onSettled: () => {
        for (const key of [
          trpc.sources.get.queryKey({ id: source.id }),
          trpc.sources.list.queryKey(),
          trpc.sources.checks.pathKey(),
          trpc.sources.checkProgress.queryKey({ id: source.id }),
          trpc.catalog.pathKey(),
        ]) {
          queryClient.invalidateQueries({ queryKey: key });
        }
      },
    }),
  );
  const [polling, setPolling] = useState(false);
  useEffect(() => {
    if (!check.isPending) {
      setPolling(false);
      return;
    }
    const id = setTimeout(() => setPolling(true), FIRST_POLL_DELAY_MS);
    return () => clearTimeout(id);
  }, [check.isPending]);

  const running = check.isPending || source.checking;
  const progress = useQuery({
    ...trpc.sources.checkProgress.queryOptions({ id: source.id }),
    enabled: check.isPending ? polling : source.checking,
    refetchInterval: POLL_MS,
  });
  const now = useNow(250, running);
  const since = check.isPending ? startedAt.current : (progress.data?.startedAt.getTime() ?? now);

  return {
    start: () => check.mutate({ id: source.id }),
    running,
    manual: check.isPending,
    progress: running ? (progress.data ?? null) : null,
    elapsedMs: running ? now - since : 0,
    outcome: check.isPending ? undefined : check.data,
    error: check.isPending ? null : check.error,
  };
}

export type CheckNowState = ReturnType<typeof useCheckNow>;

export function CheckNowButton({ state }: { state: CheckNowState }) {
  // The label stays "Check now" while running (the spinner and the progress panel say the
  // rest), so its accessible name never changes under a screen reader user.
  return (
    <Button onClick={state.start} disabled={state.running}>
      {state.running ? (
        <Loader2 className="size-4 animate-spin" aria-hidden />
      ) : (
        <RefreshCw className="size-4" aria-hidden />
      )}
      Check now
    </Button>
  );
}

/**
 * Live progress, then the outcome, in one polite live region so a screen reader hears
 * the check start and finish without moving focus.
 */
export function CheckProgressPanel({ state }: { state: CheckNowState }) {
  const { running, progress, outcome, error } = state;
  const visible = running || outcome || error;
  return (
    <div aria-live="polite" data-testid="check-progress" className={visible ? "mb-6" : undefined}>
      {running ? (
        <div className="flex flex-wrap items-center gap-x-6 gap-y-1 rounded-lg border border-accent/40 bg-accent-soft px-4 py-3 text-sm">
          <span className="inline-flex items-center gap-2 font-medium text-accent">
            <Loader2 className="size-4 animate-spin" aria-hidden />
            {/* One label whoever started it (creation, the schedule, Check now): the history says which. */}
            Checking the catalog…
          </span>
          <Stat label="pages" value={formatCount(progress?.pages ?? 0)} />
          <Stat label="Tools" value={formatCount(progress?.tools ?? 0)} />
          <Stat label="so far" value={formatBytes(progress?.bytes ?? 0)} />
          <Stat label="elapsed" value={formatElapsed(state.elapsedMs)} />
        </div>
      ) : error ? (
        <Outcome tone="danger" title="The check could not run">
          {errorMessage(error)}
        </Outcome>
      ) : outcome?.status === "succeeded" ? (
        <Outcome tone="ok" title="Check succeeded">
          {formatCount(outcome.tools)} Tools on {formatCount(outcome.pages)} {outcome.pages === 1 ? "page" : "pages"},{" "}
          {formatBytes(outcome.bytes)}.{" "}
          {outcome.added + outcome.removed + outcome.changed === 0 ? (
            "No changes."
          ) : (
            <span className="font-medium">
              +{formatCount(outcome.added)} added · −{formatCount(outcome.removed)} removed · ~
              {formatCount(outcome.changed)} changed
            </span>
          )}
        </Outcome>
      ) : outcome?.failure ? (
        // The failure alert below carries the details; this line says the check just ended.
        <p className="flex items-center gap-2 text-sm font-medium text-danger">
          <OctagonAlert className="size-4 shrink-0" aria-hidden />
          <span>
            Check failed: <code className="font-mono text-xs">{outcome.failure.code}</code>. The previous catalog stays
            active.
          </span>
        </p>
      ) : outcome ? (
        <Outcome tone="danger" title="Check cancelled">
          The previous catalog stays active.
        </Outcome>
      ) : null}
    </div>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <span className="tabular-nums">
      <span className="font-semibold">{value}</span> <span className="text-muted">{label}</span>
    </span>
  );
}

function Outcome({ tone, title, children }: { tone: "ok" | "danger"; title: string; children: ReactNode }) {
  const Icon = tone === "ok" ? CheckCircle2 : OctagonAlert;
  return (
    <div
      className={
        tone === "ok"
          ? "flex items-start gap-3 rounded-lg border border-ok/40 bg-ok-soft px-4 py-3 text-sm"
          : "flex items-start gap-3 rounded-lg border border-danger/40 bg-danger-soft px-4 py-3 text-sm"
      }
    >
      <Icon
        className={tone === "ok" ? "mt-0.5 size-4 shrink-0 text-ok" : "mt-0.5 size-4 shrink-0 text-danger"}
        aria-hidden
      />
      <div className="min-w-0">
        <p className={tone === "ok" ? "font-semibold text-ok" : "font-semibold text-danger"}>{title}</p>
        <div className="text-fg">{children}</div>
      </div>
    </div>
  );
}
