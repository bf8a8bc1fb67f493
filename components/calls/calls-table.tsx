"use client";

import Link from "next/link";
import { type ReactNode, useMemo } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { formatBytes } from "@/components/ui/format";
import { momentColumn } from "@/components/ui/relative-time";
import { EmptyState } from "@/components/ui/states";
import { useNow } from "@/components/ui/use-now";
import { ListBody, ListStatus } from "@/components/ui/virtual-list/list-states";
import { useBlockList } from "@/components/ui/virtual-list/use-block-list";
import { type Column, VirtualTable } from "@/components/ui/virtual-list/virtual-table";
import { type CallOutcome, formatMs, OUTCOME_LABELS } from "./labels";
import type { Inputs, Outputs } from "./types";

type CallFilters = Omit<Inputs["calls"]["list"], "cursor" | "limit">;
type Call = Outputs["calls"]["list"]["items"][number];

export function OutcomeBadge({ outcome, code }: { outcome: CallOutcome; code: string | null }) {
  if (outcome === "ok") return <Badge tone="ok">{OUTCOME_LABELS.ok}</Badge>;
  if (outcome === "is_error") return <Badge tone="warn">{OUTCOME_LABELS.is_error}</Badge>;
  return (
    <Badge tone="danger" className="font-mono">
      {code ?? OUTCOME_LABELS.failed}
    </Badge>
  );
}

function columnsAt(now: number, hide: { identity?: boolean; tool?: boolean }): Column<Call>[] {
  const columns: (Column<Call> | false)[] = [
    momentColumn("when", "When", (c) => c.startedAt, now, { width: "w-32" }),
    !hide.identity && {
      key: "identity",
      header: "Agent Identity",
      width: "w-[18%]",
      className: "truncate",
      cell: (c) => (
        <Link
          prefetch={false}
          href={`/agents/${c.identityId}?tab=calls`}
          className="hover:underline"
          title={c.identityName}
        >
          {c.identityName}
        </Link>
      ),
    },
    !hide.tool && {
      key: "tool",
      header: "Tool",
      width: "w-[26%]",
      className: "truncate",
      cell: (c) => (
        <span title={c.nativeName && c.nativeName !== c.toolName ? `${c.toolName} (${c.nativeName})` : c.toolName}>
          {c.toolId ? (
            <Link prefetch={false} href={`/tools/catalog/${c.toolId}`} className="font-mono text-xs hover:underline">
              {c.toolName}
            </Link>
          ) : (
            <span className="font-mono text-xs">{c.toolName}</span>
          )}{" "}
          <span className="text-xs text-muted">{c.builtIn ? "built-in" : (c.sourceName ?? "")}</span>
        </span>
      ),
    },
    {
      key: "outcome",
      header: "Outcome",
      width: "w-48",
      className: "truncate",
      cell: (c) => (
        <>
          <OutcomeBadge outcome={c.outcome} code={c.failureCode} />
          {c.tried && (
            <span className="ml-1.5" title="An operator's call from Try this Tool, not the agent's own">
              <Badge>Console try</Badge>
            </span>
          )}
        </>
      ),
    },
    {
      key: "duration",
      header: "Duration",
      width: "w-24",
      className: "whitespace-nowrap text-right tabular-nums",
      headerClassName: "text-right",
      cell: (c) => formatMs(c.durationMs),
    },
    {
      key: "sizes",
      header: "In / out",
      className: "truncate whitespace-nowrap text-right tabular-nums text-muted",
      headerClassName: "text-right",
      cell: (c) => (
        <>
          {formatBytes(c.bytesIn)} / {formatBytes(c.bytesOut)}
          {c.captured && (
            <Badge className="ml-2" tone="accent">
              captured
            </Badge>
          )}
        </>
      ),
    },
  ];
  return columns.filter((c): c is Column<Call> => Boolean(c));
}

/**
 * Calls, newest first, block-loaded (decision 0017): the Tools → Calls page and the
 * identity's Calls tab. A new call always lands in the first block, so "head" refresh
 * (refetched on focus and every 15 s) says when the rest must be read again.
 */
export function CallsTable({
  filters,
  unfiltered,
  narrowed,
  onClearFilters,
  hide = {},
  fitRows,
  empty,
}: {
  filters: CallFilters;
  unfiltered?: CallFilters;
  narrowed: boolean;
  onClearFilters?: () => void;
  hide?: { identity?: boolean; tool?: boolean };
  fitRows?: number;
  empty?: ReactNode;
}) {
  const trpc = useTRPC();
  const now = useNow();
  const calls = useBlockList(trpc.calls.list, filters, { unfiltered, refetchInterval: 15_000 });
  const columns = useMemo(() => columnsAt(now, hide), [now, hide]);
  return (
    <>
      <ListStatus list={calls} noun={["call", "calls"]} narrowed={narrowed} testId="calls-total" />
      <ListBody
        list={calls}
        narrowed={narrowed}
        onClearFilters={onClearFilters ?? (() => {})}
        loadingLabel="Loading calls"
        empty={
          empty ?? (
            <EmptyState title="No calls yet">
              Every Tool Call an agent makes through /mcp appears here, newest first.
            </EmptyState>
          )
        }
        noMatch={{ body: "No call matches these filters." }}
      >
        <VirtualTable
          label="Tool Calls"
          columns={columns}
          list={calls}
          rowHeight={40}
          rowTestId="call-row"
          scrollTestId="calls-scroll"
          fitRows={fitRows}
          minWidth="min-w-[52rem]"
        />
      </ListBody>
    </>
  );
}
