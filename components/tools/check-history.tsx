"use client";

import { useEffect, useMemo, useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { formatBytes, formatCount } from "@/components/ui/format";
import { RelativeTime } from "@/components/ui/relative-time";
import { EmptyState } from "@/components/ui/states";
import { useNow } from "@/components/ui/use-now";
import { ListBody, ListStatus } from "@/components/ui/virtual-list/list-states";
import { useBlockList } from "@/components/ui/virtual-list/use-block-list";
import { type Column, VirtualTable } from "@/components/ui/virtual-list/virtual-table";
import { CheckChangesDialog, useShownCheck } from "./check-changes-dialog";
import { failureFacts, formatElapsed, TRIGGER_LABELS } from "./labels";
import type { CheckRow } from "./types";

const ROW_HEIGHT = 56;

function columnsAt(now: number, show: (checkId: string) => void): Column<CheckRow>[] {
  return [
    {
      key: "started",
      header: "Started",
      width: "w-32",
      className: "whitespace-nowrap",
      cell: (c) => <RelativeTime at={c.startedAt} now={now} />,
    },
    {
      key: "trigger",
      wideOnly: true,
      header: "Trigger",
      width: "w-28",
      className: "whitespace-nowrap",
      cell: (c) => TRIGGER_LABELS[c.trigger] ?? c.trigger,
    },
    { key: "outcome", header: "Outcome", width: "w-28", cell: (c) => <OutcomeBadge status={c.status} /> },
    {
      key: "duration",
      wideOnly: true,
      header: "Duration",
      width: "w-24",
      headerClassName: "text-right",
      className: "whitespace-nowrap text-right tabular-nums",
      cell: (c) => formatElapsed((c.finishedAt?.getTime() ?? now) - c.startedAt.getTime()),
    },
    {
      key: "pages",
      wideOnly: true,
      header: "Pages",
      width: "w-20",
      headerClassName: "text-right",
      className: "text-right tabular-nums",
      cell: (c) => formatCount(c.pages),
    },
    {
      key: "tools",
      header: "Tools",
      width: "w-20",
      headerClassName: "text-right",
      className: "text-right tabular-nums",
      cell: (c) => formatCount(c.tools),
    },
    {
      key: "bytes",
      wideOnly: true,
      header: "Bytes",
      width: "w-24",
      headerClassName: "text-right",
      className: "whitespace-nowrap text-right tabular-nums",
      cell: (c) => <span title={`${formatCount(c.bytes)} bytes`}>{formatBytes(c.bytes)}</span>,
    },
    {
      key: "changes",
      wideOnly: true,
      header: "Changes",
      width: "w-36",
      className: "whitespace-nowrap tabular-nums",
      cell: (c) => <Changes check={c} onShow={() => show(c.id)} />,
    },
    {
      key: "failure",
      wideOnly: true,
      header: "Failure",
      cell: (c) => {
        if (!c.failureCode) return <span className="text-muted">—</span>;
        const facts = failureFacts(c.failureDetails as Record<string, unknown> | null);
        const full = [c.failureMessage, ...facts].filter(Boolean).join(" · ");
        return (
          <div className="min-w-0" title={full}>
            <code className="font-mono text-xs font-semibold text-danger">{c.failureCode}</code>
            <p className="truncate text-xs">{full}</p>
          </div>
        );
      },
    },
  ];
}

/** Every check (or registration) of a Source, newest first; a failure's whole text is in its title. */
export function CheckHistory({ sourceId, isHost }: { sourceId: string; isHost: boolean }) {
  const trpc = useTRPC();
  const shown = useShownCheck();
  const [running, setRunning] = useState(false);
  // Newest first: a new or finished check always reaches the first block. While one runs, watch it.
  const checks = useBlockList(trpc.sources.checks, { id: sourceId }, { refetchInterval: running ? 2000 : undefined });
  const newest = checks.rowAt(0);
  useEffect(() => setRunning(newest?.status === "running"), [newest?.status]);
  const now = useNow(running ? 1000 : 30_000);
  const columns = useMemo(() => columnsAt(now, shown.show), [now, shown.show]);
  const label = isHost ? "Registration history" : "Check history";

  return (
    <>
      <ListStatus
        list={checks}
        noun={isHost ? ["registration", "registrations"] : ["check", "checks"]}
        narrowed={false}
        testId="check-history-total"
      />
      <ListBody
        list={checks}
        narrowed={false}
        loadingLabel="Loading check history"
        frameClassName="h-64"
        empty={
          <EmptyState title={isHost ? "No registrations yet" : "No checks yet"}>
            {isHost
              ? "Each registration the host sends is recorded here, accepted or refused."
              : "Each catalog check is recorded here: when, how it ended, what it read and what changed."}
          </EmptyState>
        }
      >
        <VirtualTable
          label={label}
          columns={columns}
          list={checks}
          rowHeight={ROW_HEIGHT}
          rowTestId="check-row"
          scrollTestId="check-history"
          fitRows={10}
          minWidth="min-w-[64rem]"
        />
      </ListBody>
      <CheckChangesDialog />
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
