"use client";

/**
 * The proposal queue's view: its filters, the selection bar, the list beside the proposal
 * shown, and the reject dialog. Its state is useProposalQueue (use-proposal-queue.ts).
 */
import { Inbox, Keyboard } from "lucide-react";
import { type ReactNode, useMemo, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { FilterSelect } from "@/components/ui/filter-bar";
import { formatCount } from "@/components/ui/format";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { EmptyState } from "@/components/ui/states";
import { Switch } from "@/components/ui/switch";
import { errorMessage } from "@/components/ui/use-error";
import { useNow } from "@/components/ui/use-now";
import { ListBody, ListStatus } from "@/components/ui/virtual-list/list-states";
import { VirtualTable } from "@/components/ui/virtual-list/virtual-table";
import { ProposalCard } from "./proposal-card";
import { proposalColumns } from "./proposal-columns";
import { RejectDialog } from "./reject-dialog";
import type { ScopeItem } from "./types";
import { KIND_OPTIONS, type ProposalQueueState, STATUS, useProposalQueue } from "./use-proposal-queue";
import { DECIDE_MAX } from "./use-proposal-review";

const ROW_HEIGHT = 52;
const FRAME = "h-[calc(100dvh-19rem)] min-h-96";
/** Tailwind's lg: where the list and the proposal sit side by side. */
const SIDE_BY_SIDE = "(min-width: 1024px)";

export function ProposalQueue({ scope }: { scope: ScopeItem }) {
  const q = useProposalQueue(scope);
  const { notice, decisions } = q;
  const { reject, decide, rejecting, setRejecting } = decisions;
  return (
    <>
      <QueueFilters q={q} />
      <div aria-live="polite" className="empty:hidden" data-testid="review-notice">
        {notice && (
          <Callout tone={notice.tone} className="mb-4">
            {notice.text}
          </Callout>
        )}
      </div>
      <SelectionBar q={q} />
      <QueueBody q={q} scope={scope} />
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

function QueueFilters({ q }: { q: ProposalQueueState }) {
  return (
    <div className="mb-4 flex flex-wrap items-center gap-2">
      <SegmentedControl label="Status" options={STATUS} value={q.status} onChange={q.setStatus} />
      <FilterSelect
        id="proposal-kind"
        label="Kind"
        value={q.kind ?? ""}
        onValue={q.setKind}
        className="w-40"
        options={KIND_OPTIONS}
      />
      {/* Keyboard shortcuts mean little on a phone; the hint gives way to the filters there. */}
      <div className="ml-auto flex items-center gap-2 text-sm text-muted max-md:hidden">
        <Keyboard className="size-4" aria-hidden />
        <span id="shortcuts-hint" data-testid="shortcuts-hint">
          <Kbd>j</Kbd>/<Kbd>k</Kbd> move
          {q.canWrite && (
            <>
              {" "}
              · <Kbd>a</Kbd> accept · <Kbd>r</Kbd> reject · <Kbd>x</Kbd> select
            </>
          )}
        </span>
        <Switch
          checked={q.shortcuts}
          onChange={q.setShortcuts}
          label="Keyboard shortcuts"
          describedBy="shortcuts-hint"
        />
      </div>
    </div>
  );
}

/** The count, and for a curator on the pending list: select all, and decide the selected. */
function SelectionBar({ q }: { q: ProposalQueueState }) {
  const { proposals, total, pendingList } = q;
  const { selected, setSelected, selecting, selectFirst, allSelected } = q.selection;
  const { decide, busy, setRejecting } = q.decisions;
  return (
    <div className="flex h-10 flex-wrap items-center gap-3 text-sm">
      <div className="min-w-0 flex-1">
        <ListStatus
          list={proposals}
          noun={["proposal", "proposals"]}
          narrowed={Boolean(q.kind)}
          testId="proposals-total"
        >
          {!proposals.isPending && pendingList && total > 0 && ", most certain first"}
        </ListStatus>
      </div>
      {q.canWrite && pendingList && total > 0 && (
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
  );
}

/** The list beside the proposal under the cursor, or what the list shows instead of rows. */
function QueueBody({ q, scope }: { q: ProposalQueueState; scope: ScopeItem }) {
  const now = useNow();
  const detailRef = useRef<HTMLElement>(null);
  const { canWrite, pendingList, proposals, current } = q;
  const { selected, toggle } = q.selection;
  const columns = useMemo(
    () => proposalColumns({ canWrite, pendingList, selected, toggle }, now),
    [canWrite, pendingList, selected, toggle, now],
  );
  return (
    <ListBody
      list={proposals}
      narrowed={Boolean(q.kind)}
      onClearFilters={q.clearKind}
      loadingLabel="Loading proposals"
      frameClassName={FRAME}
      noMatch={{ title: "No proposals of this kind", body: "Try another kind or status." }}
      empty={
        <EmptyState title={pendingList ? "Nothing to review" : "No proposals here"} icon={<Inbox className="size-8" />}>
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
          activeIndex={q.at}
          onRowClick={(_, __, index) => {
            q.setActive(index);
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
              busy={q.decisions.busy}
              onActivate={() => {}}
              onSelect={(on) => toggle(current.id, on)}
              onAccept={() => q.acceptOne(current)}
              onReject={() => q.rejectOne(current)}
            />
          ) : (
            <p className="p-4 text-sm text-muted">Loading the proposal…</p>
          )}
        </section>
      </div>
    </ListBody>
  );
}

function Kbd({ children }: { children: ReactNode }) {
  return (
    <kbd className="rounded border border-border bg-surface-2 px-1.5 py-0.5 font-mono text-xs text-fg">{children}</kbd>
  );
}
