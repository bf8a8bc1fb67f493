"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatBytes, formatCount, formatDateTime, formatRelative } from "@/components/ui/format";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";
import { useNow } from "@/components/ui/use-now";
import { CheckChangesDialog, useShownCheck } from "./check-changes-dialog";
import { failureFacts, formatElapsed, TRIGGER_LABELS } from "./labels";
import type { CheckRow } from "./types";

const PAGE = 20;

export function CheckHistory({ sourceId, isHost }: { sourceId: string; isHost: boolean }) {
  const trpc = useTRPC();
  const checks = useInfiniteQuery(
    trpc.sources.checks.infiniteQueryOptions(
      { id: sourceId, limit: PAGE },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
  );
  const rows = checks.data?.pages.flatMap((p) => p.items) ?? [];
  const shown = useShownCheck();
  const now = useNow(
    1000,
    rows.some((r) => r.status === "running"),
  );

  if (checks.isPending) return <LoadingRows rows={3} label="Loading check history" />;
  if (checks.isError) return <ErrorState error={checks.error} retry={() => checks.refetch()} />;
  if (rows.length === 0)
    return (
      <EmptyState title={isHost ? "No registrations yet" : "No checks yet"}>
        {isHost
          ? "Each registration the host sends is recorded here, accepted or refused."
          : "Each catalog check is recorded here: when, how it ended, what it read and what changed."}
      </EmptyState>
    );

  return (
    <>
      <Table aria-label={isHost ? "Registration history" : "Check history"}>
        <thead>
          <tr>
            <Th>Started</Th>
            <Th>Trigger</Th>
            <Th>Outcome</Th>
            <Th className="text-right">Duration</Th>
            <Th className="text-right">Pages</Th>
            <Th className="text-right">Tools</Th>
            <Th className="text-right">Bytes</Th>
            <Th>Changes</Th>
            <Th>Failure</Th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={c.id} data-testid="check-row">
              <Td className="whitespace-nowrap" title={formatDateTime(c.startedAt)}>
                {formatRelative(c.startedAt, now)}
              </Td>
              <Td className="whitespace-nowrap">{TRIGGER_LABELS[c.trigger] ?? c.trigger}</Td>
              <Td>
                <OutcomeBadge status={c.status} />
              </Td>
              <Td className="whitespace-nowrap text-right tabular-nums">
                {formatElapsed((c.finishedAt?.getTime() ?? now) - c.startedAt.getTime())}
              </Td>
              <Td className="text-right tabular-nums">{formatCount(c.pages)}</Td>
              <Td className="text-right tabular-nums">{formatCount(c.tools)}</Td>
              <Td className="whitespace-nowrap text-right tabular-nums" title={`${formatCount(c.bytes)} bytes`}>
                {formatBytes(c.bytes)}
              </Td>
              <Td className="whitespace-nowrap tabular-nums">
                <Changes check={c} onShow={() => shown.show(c.id)} />
              </Td>
              <Td className="min-w-64 max-w-96">
                {c.failureCode ? (
                  <div className="min-w-0" title={c.failureMessage ?? undefined}>
                    <code className="font-mono text-xs font-semibold text-danger">{c.failureCode}</code>
                    <p className="line-clamp-2 text-xs [overflow-wrap:anywhere]">{c.failureMessage}</p>
                    {failureFacts(c.failureDetails as Record<string, unknown> | null).length > 0 && (
                      <p className="text-xs text-muted [overflow-wrap:anywhere]">
                        {failureFacts(c.failureDetails as Record<string, unknown> | null).join(" · ")}
                      </p>
                    )}
                  </div>
                ) : (
                  <span className="text-muted">—</span>
                )}
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      <CheckChangesDialog />
      {checks.hasNextPage && (
        <div className="mt-4 flex justify-center">
          <Button variant="secondary" onClick={() => checks.fetchNextPage()} disabled={checks.isFetchingNextPage}>
            {checks.isFetchingNextPage ? "Loading…" : "Load more"}
          </Button>
        </div>
      )}
    </>
  );
}

function OutcomeBadge({ status }: { status: CheckRow["status"] }) {
  if (status === "succeeded") return <Badge tone="ok">Succeeded</Badge>;
  if (status === "failed") return <Badge tone="danger">Failed</Badge>;
  return <Badge tone="accent">Running</Badge>;
}

function Changes({ check, onShow }: { check: CheckRow; onShow: () => void }) {
  if (check.status !== "succeeded") return <span className="text-muted">—</span>;
  if (check.added + check.removed + check.changed === 0) return <span className="text-muted">none</span>;
  return (
    <button
      type="button"
      onClick={onShow}
      className="rounded underline-offset-2 hover:underline"
      title="Show which Tools"
    >
      <span className="sr-only">
        {check.added} added, {check.removed} removed, {check.changed} changed — show which Tools
      </span>
      <span aria-hidden>
        <span className={check.added ? "text-ok" : "text-muted"}>+{formatCount(check.added)}</span>{" "}
        <span className={check.removed ? "text-danger" : "text-muted"}>−{formatCount(check.removed)}</span>{" "}
        <span className={check.changed ? "text-warn" : "text-muted"}>~{formatCount(check.changed)}</span>
      </span>
    </button>
  );
}
