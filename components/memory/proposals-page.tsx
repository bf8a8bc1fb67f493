"use client";

import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { Inbox, Keyboard, Play } from "lucide-react";
import Link from "next/link";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Select } from "@/components/ui/field";
import { formatCount } from "@/components/ui/format";
import { MoreRows } from "@/components/ui/more-rows";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/states";
import { Switch } from "@/components/ui/switch";
import { errorMessage } from "@/components/ui/use-error";
import { useUrlState } from "@/components/ui/use-url-state";
import { domainCode, PROPOSAL_KIND_LABELS } from "./labels";
import { ProposalCard } from "./proposal-card";
import { RejectDialog } from "./reject-dialog";
import { ScopedPage } from "./scoped-page";
import type { ProposalItem, ScopeItem } from "./types";
import { useReviewKeys, useShortcutsSetting } from "./use-review-keys";

const STATUS = [
  { value: "pending", label: "Pending" },
  { value: "accepted", label: "Accepted" },
  { value: "rejected", label: "Rejected" },
  { value: "stale", label: "Stale" },
  { value: "all", label: "All" },
] as const;
type Status = (typeof STATUS)[number]["value"];
const KINDS = ["merge", "supersede", "discard"] as const;
type Kind = (typeof KINDS)[number];

export const PROPOSALS_PAGE = 25;

type Notice = { tone: "ok" | "danger" | "info"; text: ReactNode };

export function ProposalsPage() {
  const canWrite = useCan("curator");
  const [report, setReport] = useState<Notice | null>(null);
  return (
    <ScopedPage
      title="Proposals"
      description="The consolidator's review queue: duplicates to discard, near-duplicates to merge, outdated facts to supersede. Nothing changes until you accept."
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
        const kinds = KINDS.filter((k) => r.byKind[k] > 0)
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

function ProposalQueue({ scope }: { scope: ScopeItem }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canWrite = useCan("curator");
  const [filters, setFilters] = useUrlState(["status", "kind"] as const);
  const status: Status = STATUS.some((s) => s.value === filters.status) ? (filters.status as Status) : "pending";
  const kind = (KINDS as readonly string[]).includes(filters.kind) ? (filters.kind as Kind) : undefined;
  const pages = useInfiniteQuery({
    ...trpc.proposals.list.infiniteQueryOptions(
      { scopeId: scope.id, status, kind, limit: PROPOSALS_PAGE },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
    placeholderData: keepPreviousData,
  });
  const rows = pages.data?.pages.flatMap((p) => p.items) ?? [];
  const total = pages.data?.pages[0]?.total ?? 0;

  const [active, setActive] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [rejecting, setRejecting] = useState<string[] | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const cards = useRef(new Map<string, HTMLElement>());
  const [shortcuts, setShortcuts] = useShortcutsSetting();

  // Decided proposals leave the pending list: keep the cursor on the one that moved up.
  const current = rows[Math.min(active, Math.max(rows.length - 1, 0))];
  useEffect(() => {
    if (active > 0 && active >= rows.length) setActive(Math.max(rows.length - 1, 0));
  }, [active, rows.length]);
  // Selections only of proposals still listed.
  useEffect(() => {
    setSelected((s) => {
      const listed = new Set(rows.map((r) => r.id));
      const kept = [...s].filter((id) => listed.has(id));
      return kept.length === s.size ? s : new Set(kept);
    });
  }, [rows]);

  const refresh = () => {
    refocus.current = true;
    return Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.proposals.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.memories.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.threads.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.scopes.pathKey() }),
    ]);
  };

  const accept = useMutation(
    trpc.proposals.accept.mutationOptions({
      onSuccess: (decided) => {
        setNotice({
          tone: "ok",
          text: (
            <>
              Accepted the {decided.kind} proposal.
              {decided.resultMemoryId && (
                <>
                  {" "}
                  <Link href={`/memory/memories/${decided.resultMemoryId}`} className="font-medium underline">
                    {decided.kind === "merge" ? "Open the merged memory" : "Open the memory that stays"}
                  </Link>
                </>
              )}
            </>
          ),
        });
        return refresh();
      },
      onError: (e) => {
        setNotice(
          domainCode(e) === "PROPOSAL_STALE"
            ? { tone: "info", text: "Recorded as stale: its memories had changed, so nothing was applied." }
            : { tone: "danger", text: `Not accepted: ${errorMessage(e)}` },
        );
        return refresh();
      },
    }),
  );
  const reject = useMutation(
    trpc.proposals.reject.mutationOptions({
      onSuccess: () => {
        setRejecting(null);
        setNotice({ tone: "ok", text: "Rejected. These memories will not be proposed together again." });
        return refresh();
      },
    }),
  );
  const decide = useMutation(
    trpc.proposals.decide.mutationOptions({
      onSuccess: (r, input) => {
        setRejecting(null);
        setSelected(new Set());
        const verb = input.decision === "accept" ? "Accepted" : "Rejected";
        setNotice({
          tone: r.failed ? "danger" : "ok",
          text: r.failed ? (
            <>
              {verb} {formatCount(r.decided)}; {formatCount(r.failed)} not decided:
              <ul className="mt-1 list-disc pl-5">
                {r.results
                  .filter((x) => !x.ok)
                  .slice(0, 5)
                  .map((x) => (
                    <li key={x.id}>{x.message}</li>
                  ))}
              </ul>
            </>
          ) : (
            `${verb} ${formatCount(r.decided)} ${r.decided === 1 ? "proposal" : "proposals"}.`
          ),
        });
        return refresh();
      },
    }),
  );
  const busy = accept.isPending || reject.isPending || decide.isPending;

  const focusCard = useCallback((id: string | undefined) => {
    const el = id ? cards.current.get(id) : undefined;
    el?.focus({ preventScroll: true });
    el?.scrollIntoView({ block: "nearest" });
  }, []);
  // After a decision removes the focused card, focus goes to the page: bring it back to
  // the card that took its place, so j/k/a/r keep working from where the reviewer is.
  const refocus = useRef(false);
  const currentId = current?.id;
  useEffect(() => {
    if (!refocus.current || !currentId) return;
    if (document.activeElement === document.body || !document.activeElement?.isConnected) focusCard(currentId);
    refocus.current = false;
  }, [currentId, focusCard]);
  const move = (by: number) => {
    if (!rows.length) return;
    const next = Math.min(Math.max(active + by, 0), rows.length - 1);
    setActive(next);
    focusCard(rows[next]?.id);
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
  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  useReviewKeys(shortcuts, {
    j: () => move(1),
    k: () => move(-1),
    a: () => canWrite && acceptOne(current),
    r: () => canWrite && rejectOne(current),
    x: () => canWrite && current?.status === "pending" && toggle(current.id, !selected.has(current.id)),
  });

  const pendingRows = rows.filter((r) => r.status === "pending");
  const allSelected = pendingRows.length > 0 && pendingRows.every((r) => selected.has(r.id));

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
        <label className="sr-only" htmlFor="proposal-kind">
          Kind
        </label>
        <Select
          id="proposal-kind"
          value={kind ?? ""}
          onChange={(e) => {
            setActive(0);
            setFilters({ kind: e.target.value });
          }}
          className="w-40"
        >
          <option value="">All kinds</option>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {PROPOSAL_KIND_LABELS[k]}
            </option>
          ))}
        </Select>
        <div className="ml-auto flex items-center gap-2 text-sm text-muted">
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

      {canWrite && status === "pending" && rows.length > 0 && (
        <div className="mb-3 flex flex-wrap items-center gap-3 rounded-lg border border-border bg-surface px-3 py-2 text-sm">
          <label className="inline-flex items-center gap-2">
            <input
              type="checkbox"
              checked={allSelected}
              onChange={(e) => setSelected(e.target.checked ? new Set(pendingRows.map((r) => r.id)) : new Set())}
              className="size-4 accent-[var(--accent)]"
            />
            Select all shown
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
        </div>
      )}

      {pages.isPending ? (
        <LoadingRows label="Loading proposals" />
      ) : pages.isError ? (
        <ErrorState error={pages.error} retry={() => pages.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState
          title={status === "pending" ? "Nothing to review" : "No proposals here"}
          icon={<Inbox className="size-8" />}
        >
          {status === "pending"
            ? `The consolidator has no pending proposals for “${scope.name}”. It runs on its own every few hours${canWrite ? "; “Run consolidator now” checks at once" : ""}.`
            : "Try another status or kind."}
        </EmptyState>
      ) : (
        <section aria-label="Proposals" aria-busy={pages.isPlaceholderData}>
          <ol className="space-y-3">
            {rows.map((p, i) => (
              <li key={p.id}>
                <ProposalCard
                  ref={(el) => {
                    if (el) cards.current.set(p.id, el);
                    else cards.current.delete(p.id);
                  }}
                  proposal={p}
                  active={current?.id === p.id}
                  selected={selected.has(p.id)}
                  canWrite={canWrite}
                  busy={busy}
                  onActivate={() => setActive(i)}
                  onSelect={(on) => toggle(p.id, on)}
                  onAccept={() => {
                    setActive(i);
                    acceptOne(p);
                  }}
                  onReject={() => {
                    setActive(i);
                    rejectOne(p);
                  }}
                />
              </li>
            ))}
          </ol>
          <div className="mt-4">
            <MoreRows shown={rows.length} total={total} pages={pages} label={`Load ${PROPOSALS_PAGE} more`} />
          </div>
        </section>
      )}

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
