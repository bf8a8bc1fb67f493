"use client";

/**
 * The proposal queue's state in one hook, for its view (proposal-queue.tsx): the filters in
 * the address, the paged list, the cursor (the proposal shown), the selection and the three
 * decisions (use-proposal-review.tsx), and the review keys that drive them.
 */
import { useEffect, useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { useUrlState } from "@/components/ui/use-url-state";
import { useBlockList } from "@/components/ui/virtual-list/use-block-list";
import { PROPOSAL_KIND_LABELS } from "./labels";
import type { ProposalItem, ScopeItem } from "./types";
import { DECIDE_MAX, type Notice, useProposalDecisions, useProposalSelection } from "./use-proposal-review";
import { useReviewKeys, useShortcutsSetting } from "./use-review-keys";
import { useScopeVersion } from "./use-scope-version";

export const STATUS = [
  { value: "pending", label: "Pending" },
  { value: "accepted", label: "Accepted" },
  { value: "rejected", label: "Rejected" },
  { value: "stale", label: "Stale" },
  { value: "all", label: "All" },
] as const;
type Status = (typeof STATUS)[number]["value"];
const KINDS = ["merge", "supersede", "discard", "admit"] as const;
type Kind = (typeof KINDS)[number];
export const KIND_OPTIONS = [
  { value: "", label: "All kinds" },
  ...KINDS.map((k) => ({ value: k, label: PROPOSAL_KIND_LABELS[k] ?? k })),
];

/** Proposals per block: each carries its memories' bodies, so blocks are smaller than other lists'. */
const PROPOSAL_BLOCK = 50;

export function useProposalQueue(scope: ScopeItem) {
  const trpc = useTRPC();
  const canWrite = useCan("curator");
  const [filters, setFilters] = useUrlState(["status", "kind"] as const);
  const status: Status = STATUS.some((s) => s.value === filters.status) ? (filters.status as Status) : "pending";
  const kind = (KINDS as readonly string[]).includes(filters.kind) ? (filters.kind as Kind) : undefined;
  const { version, changed } = useScopeVersion(scope.id);
  const proposals = useBlockList(
    trpc.proposals.list,
    { scopeId: scope.id, status, kind },
    { refresh: { version }, unfiltered: { scopeId: scope.id, status }, blockRows: PROPOSAL_BLOCK },
  );
  const total = proposals.total;

  const [active, setActive] = useState(0);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [shortcuts, setShortcuts] = useShortcutsSetting();

  // Decided proposals leave the pending list: the cursor stays at its position, on the one that moved up.
  const at = Math.min(active, Math.max(total - 1, 0));
  const current = total ? proposals.rowAt(at) : undefined;
  useEffect(() => {
    if (active > 0 && active >= total && !proposals.isPending) setActive(Math.max(total - 1, 0));
  }, [active, total, proposals.isPending]);

  const selection = useProposalSelection({ scopeId: scope.id, status, kind }, setNotice);
  const { selected, setSelected, toggle, forget } = selection;
  const decisions = useProposalDecisions({
    changed,
    forget,
    clearSelection: () => setSelected(new Set()),
    setNotice,
  });
  const { accept, reject, busy, setRejecting } = decisions;

  const move = (by: number) => {
    if (!total) return;
    setActive(Math.min(Math.max(at + by, 0), total - 1));
  };
  const acceptOne = (p: ProposalItem | undefined) => {
    if (p && p.status === "pending" && !busy) accept.mutate({ id: p.id });
  };
  const rejectOne = (p: ProposalItem | undefined) => {
    if (p && p.status === "pending") {
      reject.reset();
      setRejecting([p.id]);
    }
  };

  useReviewKeys(shortcuts, {
    j: () => move(1),
    k: () => move(-1),
    a: () => canWrite && acceptOne(current),
    r: () => canWrite && rejectOne(current),
    x: () => canWrite && current?.status === "pending" && toggle(current.id, !selected.has(current.id)),
  });

  const selectable = Math.min(total, DECIDE_MAX);
  return {
    canWrite,
    /** Filters: a new one starts the cursor over at the top. */
    status,
    kind,
    setStatus: (v: Status) => {
      setActive(0);
      setFilters({ status: v === "pending" ? null : v });
    },
    setKind: (v: string) => {
      setActive(0);
      setFilters({ kind: v });
    },
    clearKind: () => setFilters({ kind: null }),
    pendingList: status === "pending",
    proposals,
    total,
    /** The cursor: the row shown beside the list. */
    at,
    current,
    setActive,
    notice,
    shortcuts,
    setShortcuts,
    selection: { ...selection, allSelected: selected.size > 0 && selected.size >= selectable },
    decisions,
    acceptOne,
    rejectOne,
  };
}

export type ProposalQueueState = ReturnType<typeof useProposalQueue>;
