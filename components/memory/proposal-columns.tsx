"use client";

import { Badge, type Tone } from "@/components/ui/badge";
import { formatRelative } from "@/components/ui/format";
import type { Column } from "@/components/ui/virtual-list/virtual-table";
import { PROPOSAL_KIND_LABELS, PROPOSAL_STATUS_LABELS } from "./labels";
import type { ProposalItem } from "./types";

const KIND_TONES: Record<string, Tone> = { merge: "accent", supersede: "warn", discard: "neutral", admit: "ok" };

interface RowActions {
  canWrite: boolean;
  pendingList: boolean;
  selected: Set<string>;
  toggle: (id: string, on: boolean) => void;
}

/** The queue's columns: a checkbox where a curator decides the pending list, the proposal, its score. */
export function proposalColumns(actions: RowActions, now: number): Column<ProposalItem>[] {
  const columns: Column<ProposalItem>[] = [];
  if (actions.canWrite && actions.pendingList)
    columns.push({
      key: "select",
      header: <span className="sr-only">Selected</span>,
      width: "w-10",
      cell: (p) => (
        <input
          type="checkbox"
          checked={actions.selected.has(p.id)}
          onChange={(e) => actions.toggle(p.id, e.target.checked)}
          aria-label={`Select this ${p.kind} proposal`}
          className="size-4 accent-[var(--accent)]"
        />
      ),
    });
  columns.push(
    {
      key: "rationale",
      header: "Proposal",
      cell: (p) => (
        <>
          <p className="truncate text-sm" title={p.rationale}>
            {p.rationale}
          </p>
          <p className="truncate text-xs text-muted">
            {/* The kind leads the second line, leaving the rationale the row's whole width. */}
            <span data-kind={p.kind} data-status={p.status} className="mr-1.5 inline-flex">
              <Badge tone={KIND_TONES[p.kind] ?? "neutral"} className="px-1.5 py-0 text-[11px]">
                {PROPOSAL_KIND_LABELS[p.kind] ?? p.kind}
              </Badge>
            </span>
            {/* On a phone the Score column folds away. */}
            <span className="md:hidden">{p.score.toFixed(2)} · </span>
            {p.memoryIds.length} {p.memoryIds.length === 1 ? "memory" : "memories"}
            {p.stale && " · stale"}
            {p.status !== "pending" && ` · ${PROPOSAL_STATUS_LABELS[p.status] ?? p.status}`} · filed{" "}
            {formatRelative(p.filedAt, now)}
          </p>
        </>
      ),
    },
    {
      key: "score",
      header: "Score",
      width: "w-16",
      headerClassName: "text-right",
      className: "text-right font-mono tabular-nums",
      wideOnly: true,
      cell: (p) => p.score.toFixed(2),
    },
  );
  return columns;
}
