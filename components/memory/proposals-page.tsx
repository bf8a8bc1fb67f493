"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Inbox, Keyboard, Play } from "lucide-react";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { FilterSelect } from "@/components/ui/filter-bar";
import { formatCount, formatRelative } from "@/components/ui/format";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { EmptyState } from "@/components/ui/states";
import { Switch } from "@/components/ui/switch";
import { errorMessage } from "@/components/ui/use-error";
import { useNow } from "@/components/ui/use-now";
import { useUrlState } from "@/components/ui/use-url-state";
import { ListBody, ListStatus } from "@/components/ui/virtual-list/list-states";
import { useBlockList } from "@/components/ui/virtual-list/use-block-list";
import { type Column, VirtualTable } from "@/components/ui/virtual-list/virtual-table";
import { PROPOSAL_KIND_LABELS, PROPOSAL_STATUS_LABELS } from "./labels";
import { ProposalCard } from "./proposal-card";
import { RejectDialog } from "./reject-dialog";
import { ScopedPage } from "./scoped-page";
import type { ProposalItem, ScopeItem } from "./types";
import { DECIDE_MAX, type Notice, useProposalDecisions, useProposalSelection } from "./use-proposal-review";
import { useReviewKeys, useShortcutsSetting } from "./use-review-keys";
import { useScopeVersion } from "./use-scope-version";

const STATUS = [
  { value: "pending", label: "Pending" },
  { value: "accepted", label: "Accepted" },
  { value: "rejected", label: "Rejected" },
  { value: "stale", label: "Stale" },
  { value: "all", label: "All" },
] as const;
type Status = (typeof STATUS)[number]["value"];
const KINDS = ["merge", "supersede", "discard", "admit"] as const;
type Kind = (typeof KINDS)[number];
const KIND_OPTIONS = [
  { value: "", label: "All kinds" },
  ...KINDS.map((k) => ({ value: k, label: PROPOSAL_KIND_LABELS[k] ?? k })),
];

/** Proposals per block: each carries its memories' bodies, so blocks are smaller than other lists'. */
const PROPOSAL_BLOCK = 50;
const ROW_HEIGHT = 52;
const FRAME = "h-[calc(100dvh-19rem)] min-h-96";
/** Tailwind's lg: where the list and the proposal sit side by side. */
const SIDE_BY_SIDE = "(min-width: 1024px)";
const KIND_TONES: Record<string, Tone> = { merge: "accent", supersede: "warn", discard: "neutral", admit: "ok" };

export function ProposalsPage() {
  const canWrite = useCan("curator");
  const [report, setReport] = useState<Notice | null>(null);
  return (
    <ScopedPage
      title="Proposals"
      description="The consolidator's review queue: duplicates to discard, near-duplicates to merge, outdated facts to supersede, and agents' writes to admit where a scope holds them for review. Nothing changes until you accept."
      loadingLabel="Loading proposals"
      actions={(scope) => canWrite && <RunConsolidator scope={scope} onReport={setReport} />}
    >
      {(scope) => (
        <>
          {report && (
            <Callout tone={report.tone} className="mb-4" role="status" data-testid="consolidator-report">
              {report.text}
            </Callout>
          )}
          <ProposalQueue key={scope.id} scope={scope} />
        </>
      )}
    </ScopedPage>
  );
}

function RunConsolidator({ scope, onReport }: { scope: ScopeItem; onReport: (n: Notice) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const run = useMutation(
    trpc.consolidator.run.mutationOptions({
      onSuccess: async (r) => {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.proposals.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.scopes.pathKey() }),
        ]);
        // The consolidator files no admit proposals: agents' writes do.
        const kinds = (["merge", "supersede", "discard"] as const)
          .filter((k) => r.byKind[k] > 0)
          .map((k) => `${formatCount(r.byKind[k])} ${PROPOSAL_KIND_LABELS[k]?.toLowerCase()}`)
          .join(", ");
        onReport({
          tone: r.filed ? "ok" : "info",
          text: r.filed
            ? `The consolidator filed ${formatCount(r.filed)} new ${r.filed === 1 ? "proposal" : "proposals"} (${kinds}) in ${formatCount(r.ms)} ms.`
            : `Nothing new to propose in “${scope.name}” (checked in ${formatCount(r.ms)} ms). Memories already under review are not proposed twice.`,
        });
      },
      onError: (e) => onReport({ tone: "danger", text: `The consolidator did not run: ${errorMessage(e)}` }),
    }),
  );
  return (
    <Button variant="secondary" onClick={() => run.mutate({ scopeId: scope.id })} disabled={run.isPending}>
      <Play className="size-4" aria-hidden /> {run.isPending ? "Running…" : "Run consolidator now"}
    </Button>
  );
}

interface RowActions {
  canWrite: boolean;
  pendingList: boolean;
  selected: Set<string>;
  toggle: (id: string, on: boolean) => void;
}

function proposalColumns(actions: RowActions, now: number): Column<ProposalItem>[] {
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

function ProposalQueue({ scope }: { scope: ScopeItem }) {
  const trpc = useTRPC();
  const canWrite = useCan("curator");
  const now = useNow();
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
  const detailRef = useRef<HTMLElement>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [shortcuts, setShortcuts] = useShortcutsSetting();

  // Decided proposals leave the pending list: the cursor stays at its position, on the one that moved up.
  const at = Math.min(active, Math.max(total - 1, 0));
  const current = total ? proposals.rowAt(at) : undefined;
  useEffect(() => {
    if (active > 0 && active >= total && !proposals.isPending) setActive(Math.max(total - 1, 0));
  }, [active, total, proposals.isPending]);

  const { selected, setSelected, toggle, forget, selecting, selectFirst } = useProposalSelection(
    { scopeId: scope.id, status, kind },
    setNotice,
  );
  const { accept, reject, decide, busy, rejecting, setRejecting } = useProposalDecisions({
    changed,
    forget,
    clearSelection: () => setSelected(new Set()),
    setNotice,
  });

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
  const allSelected = selected.size > 0 && selected.size >= selectable;
  const pendingList = status === "pending";
  const columns = useMemo(
    () => proposalColumns({ canWrite, pendingList, selected, toggle }, now),
    [canWrite, pendingList, selected, toggle, now],
  );

  return (
    <>
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <SegmentedControl
          label="Status"
          options={STATUS}
          value={status}
          onChange={(v) => {
            setActive(0);
            setFilters({ status: v === "pending" ? null : v });
          }}
        />
        <FilterSelect
          id="proposal-kind"
          label="Kind"
          value={kind ?? ""}
          onValue={(v) => {
            setActive(0);
            setFilters({ kind: v });
          }}
          className="w-40"
          options={KIND_OPTIONS}
        />
        {/* Keyboard shortcuts mean little on a phone; the hint gives way to the filters there. */}
        <div className="ml-auto flex items-center gap-2 text-sm text-muted max-md:hidden">
          <Keyboard className="size-4" aria-hidden />
          <span id="shortcuts-hint" data-testid="shortcuts-hint">
            <Kbd>j</Kbd>/<Kbd>k</Kbd> move
            {canWrite && (
              <>
                {" "}
                · <Kbd>a</Kbd> accept · <Kbd>r</Kbd> reject · <Kbd>x</Kbd> select
              </>
            )}
          </span>
          <Switch checked={shortcuts} onChange={setShortcuts} label="Keyboard shortcuts" describedBy="shortcuts-hint" />
        </div>
      </div>

      <div aria-live="polite" className="empty:hidden" data-testid="review-notice">
        {notice && (
          <Callout tone={notice.tone} className="mb-4">
            {notice.text}
          </Callout>
        )}
      </div>

      <div className="flex h-10 flex-wrap items-center gap-3 text-sm">
        <div className="min-w-0 flex-1">
          <ListStatus
            list={proposals}
            noun={["proposal", "proposals"]}
            narrowed={Boolean(kind)}
            testId="proposals-total"
          >
            {!proposals.isPending && pendingList && total > 0 && ", most certain first"}
          </ListStatus>
        </div>
        {canWrite && pendingList && total > 0 && (
          <>
            <label className="inline-flex items-center gap-2">
              <input
                type="checkbox"
                checked={allSelected}
                disabled={selecting}
                onChange={(e) => {
                  if (e.target.checked) void selectFirst();
                  else setSelected(new Set());
                }}
                className="size-4 accent-[var(--accent)]"
              />
              {total > DECIDE_MAX ? `Select the first ${formatCount(DECIDE_MAX)}` : "Select all"}
            </label>
            <span className="text-muted" data-testid="selection-count">
              {formatCount(selected.size)} selected
            </span>
            <Button
              size="sm"
              disabled={!selected.size || busy}
              onClick={() => decide.mutate({ ids: [...selected], decision: "accept" })}
            >
              Accept selected
            </Button>
            <Button
              size="sm"
              variant="secondary"
              disabled={!selected.size || busy}
              onClick={() => {
                decide.reset();
                setRejecting([...selected]);
              }}
            >
              Reject selected…
            </Button>
            {decide.error && <span className="text-danger">{errorMessage(decide.error)}</span>}
          </>
        )}
      </div>

      <ListBody
        list={proposals}
        narrowed={Boolean(kind)}
        onClearFilters={() => setFilters({ kind: null })}
        loadingLabel="Loading proposals"
        frameClassName={FRAME}
        noMatch={{ title: "No proposals of this kind", body: "Try another kind or status." }}
        empty={
          <EmptyState
            title={pendingList ? "Nothing to review" : "No proposals here"}
            icon={<Inbox className="size-8" />}
          >
            {pendingList
              ? `The consolidator has no pending proposals for “${scope.name}”. It runs on its own every few hours${canWrite ? "; “Run consolidator now” checks at once" : ""}.`
              : "Try another status or kind."}
          </EmptyState>
        }
      >
        <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
          <VirtualTable
            label="Proposals"
            columns={columns}
            list={proposals}
            rowHeight={ROW_HEIGHT}
            rowTestId="proposal-row"
            scrollTestId="proposals-scroll"
            className={FRAME}
            minWidth="min-w-[22rem]"
            activeIndex={at}
            onRowClick={(_, __, index) => {
              setActive(index);
              // Stacked below the list on a narrow screen: a tap brings the proposal into view.
              if (!window.matchMedia(SIDE_BY_SIDE).matches)
                requestAnimationFrame(() => detailRef.current?.scrollIntoView({ block: "start" }));
            }}
          />
          <section
            ref={detailRef}
            aria-label="The proposal under review"
            className={`overflow-auto scroll-mt-4 ${FRAME}`}
            data-testid="proposal-detail"
          >
            {current ? (
              <ProposalCard
                proposal={current}
                active
                selected={selected.has(current.id)}
                canWrite={canWrite}
                busy={busy}
                onActivate={() => {}}
                onSelect={(on) => toggle(current.id, on)}
                onAccept={() => acceptOne(current)}
                onReject={() => rejectOne(current)}
              />
            ) : (
              <p className="p-4 text-sm text-muted">Loading the proposal…</p>
            )}
          </section>
        </div>
      </ListBody>

      {rejecting && (
        <RejectDialog
          open
          count={rejecting.length}
          pending={reject.isPending || decide.isPending}
          error={errorMessage(reject.error ?? decide.error)}
          onClose={() => setRejecting(null)}
          onReject={(reason) => {
            const [only] = rejecting;
            if (rejecting.length === 1 && only) reject.mutate({ id: only, reason });
            else decide.mutate({ ids: rejecting, decision: "reject", reason });
          }}
        />
      )}
    </>
  );
}

function Kbd({ children }: { children: ReactNode }) {
  return (
    <kbd className="rounded border border-border bg-surface-2 px-1.5 py-0.5 font-mono text-xs text-fg">{children}</kbd>
  );
}
