"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { formatDateTime } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/states";
import { errorMessage } from "@/components/ui/use-error";
import { DiffSection, FlagList } from "./review-diff-view";

const FIELD_LABELS: Record<string, string> = {
  name: "name",
  title: "title",
  description: "description",
  inputSchema: "input schema",
  outputSchema: "output schema",
  annotations: "annotations",
};

/**
 * Tools → Review: Tool definitions that wait for an operator before any model sees them.
 * Keyboard: j/k or ↓/↑ move, x checks, a approves and r rejects the checked Tools (or the
 * one shown). Every decision names the digest shown, so text that changed meanwhile is
 * never approved unseen.
 */
export function ReviewPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canDecide = useCan("operator");
  const queue = useQuery(trpc.review.queue.queryOptions({ limit: 500 }));
  const items = useMemo(() => queue.data?.items ?? [], [queue.data]);
  const [current, setCurrent] = useState<string | null>(null);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);
  const shownId = current && items.some((t) => t.id === current) ? current : (items[0]?.id ?? null);
  const review = useQuery({ ...trpc.review.get.queryOptions({ id: shownId ?? "" }), enabled: Boolean(shownId) });

  const refresh = useCallback(() => {
    queryClient.invalidateQueries({ queryKey: trpc.review.pathKey() });
    queryClient.invalidateQueries({ queryKey: trpc.catalog.pathKey() });
  }, [queryClient, trpc]);
  const decide = useMutation(
    trpc.review.decide.mutationOptions({
      onSuccess: (r) => {
        setNotice(
          `${r.decision === "approve" ? "Approved" : "Rejected"} ${r.decided} Tool${r.decided === 1 ? "" : "s"}.`,
        );
        setChecked(new Set());
        refresh();
      },
      onError: refresh,
    }),
  );
  const approveSource = useMutation(
    trpc.review.approveSource.mutationOptions({
      onSuccess: (r) => {
        setNotice(`Approved ${r.decided} Tool${r.decided === 1 ? "" : "s"}.`);
        setChecked(new Set());
        refresh();
      },
      onError: refresh,
    }),
  );

  const targets = useCallback(() => {
    const ids = checked.size ? [...checked] : shownId ? [shownId] : [];
    return items.filter((t) => ids.includes(t.id)).map((t) => ({ id: t.id, digest: t.digest }));
  }, [checked, shownId, items]);
  const act = useCallback(
    (decision: "approve" | "reject") => {
      const tools = targets();
      if (tools.length && !decide.isPending) decide.mutate({ decision, tools });
    },
    [targets, decide],
  );
  const move = useCallback(
    (by: number) => {
      const at = items.findIndex((t) => t.id === shownId);
      const next = items[Math.min(items.length - 1, Math.max(0, at + by))];
      if (next) setCurrent(next.id);
    },
    [items, shownId],
  );
  const toggle = useCallback((id: string) => {
    setChecked((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      const target = e.target as HTMLElement | null;
      if (
        e.altKey ||
        e.ctrlKey ||
        e.metaKey ||
        target?.closest("input:not([type=checkbox]), textarea, select, [role=dialog]")
      )
        return;
      if (e.key === "j" || e.key === "ArrowDown") move(1);
      else if (e.key === "k" || e.key === "ArrowUp") move(-1);
      else if (e.key === "x" && shownId) toggle(shownId);
      else if (e.key === "a" && canDecide) act("approve");
      else if (e.key === "r" && canDecide) act("reject");
      else return;
      e.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [move, toggle, act, shownId, canDecide]);

  const failure = errorMessage(decide.error) ?? errorMessage(approveSource.error);
  return (
    <>
      <PageHeader
        title="Review"
        description="Tool definitions that are new or changed since an operator approved them. No model is offered one, and no agent can call it, until it is approved here."
      />
      <p className="mb-3 text-sm text-muted" id="review-keys">
        Keys: <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>x</kbd> check, <kbd>a</kbd> approve, <kbd>r</kbd> reject — the
        checked Tools, or the one shown.
      </p>
      <div aria-live="polite" className="mb-2 min-h-5 text-sm">
        {failure ? <span className="text-danger">{failure}</span> : notice}
      </div>
      <QueryView query={queue} loadingLabel="Loading the review queue">
        {(data) =>
          items.length === 0 ? (
            <EmptyState title="Nothing waits for review">
              New and changed Tools of Sources under the review policy appear here before any model sees them.
            </EmptyState>
          ) : (
            <div className="grid gap-4 lg:grid-cols-[minmax(16rem,22rem)_1fr]">
              <Card>
                <CardHeader
                  title={`${data.total} waiting`}
                  actions={
                    canDecide ? (
                      <div className="flex gap-2">
                        <Button size="sm" onClick={() => act("approve")} disabled={decide.isPending}>
                          Approve{checked.size ? ` ${checked.size}` : ""}
                        </Button>
                        <Button size="sm" variant="danger" onClick={() => act("reject")} disabled={decide.isPending}>
                          Reject{checked.size ? ` ${checked.size}` : ""}
                        </Button>
                      </div>
                    ) : undefined
                  }
                />
                <ul
                  className="divide-y divide-border"
                  aria-label="Tools awaiting review"
                  aria-describedby="review-keys"
                >
                  {items.map((t) => (
                    <li
                      key={t.id}
                      className={`flex items-start gap-2 px-3 py-2 ${t.id === shownId ? "bg-accent-soft" : ""}`}
                      data-testid="review-item"
                      aria-current={t.id === shownId ? "true" : undefined}
                    >
                      <input
                        type="checkbox"
                        className="mt-1"
                        aria-label={`Check ${t.nativeName}`}
                        checked={checked.has(t.id)}
                        onChange={() => toggle(t.id)}
                      />
                      <button type="button" className="min-w-0 flex-1 text-left" onClick={() => setCurrent(t.id)}>
                        <span className="block truncate font-mono text-xs">{t.nativeName}</span>
                        <span className="block truncate text-xs text-muted">
                          {t.sourceName} ·{" "}
                          {t.isNew ? "new" : t.changed.map((f) => FIELD_LABELS[f] ?? f).join(", ") || "changed"}
                        </span>
                      </button>
                      {t.state === "review_rejected" && <Badge tone="danger">Rejected</Badge>}
                    </li>
                  ))}
                </ul>
                {canDecide && data.sources.length > 0 && (
                  <div className="space-y-1 border-t border-border px-3 py-2">
                    {data.sources.map((s) => (
                      <Button
                        key={s.id}
                        size="sm"
                        variant="secondary"
                        disabled={approveSource.isPending}
                        onClick={() => approveSource.mutate({ sourceId: s.id, catalogVersion: s.catalogVersion })}
                      >
                        Approve all {s.pending} of {s.name}
                      </Button>
                    ))}
                  </div>
                )}
              </Card>
              <Card aria-label="Review of the Tool shown">
                {review.isPending ? (
                  <div className="p-4">
                    <LoadingRows rows={3} label="Loading the diff" />
                  </div>
                ) : review.isError ? (
                  <div className="p-4">
                    <ErrorState error={review.error} retry={() => review.refetch()} />
                  </div>
                ) : (
                  <>
                    <CardHeader
                      title={<span className="font-mono">{review.data.nativeName}</span>}
                      description={
                        <>
                          <Link className="underline" href={`/tools/sources/${review.data.sourceId}`}>
                            {review.data.sourceName}
                          </Link>
                          {review.data.since && <> · waiting since {formatDateTime(review.data.since)}</>}
                          {" · "}
                          {review.data.isNew
                            ? "a new Tool"
                            : `changed: ${review.data.changed.map((f) => FIELD_LABELS[f] ?? f).join(", ") || "nothing reviewed"}`}
                        </>
                      }
                    />
                    <div className="space-y-4 p-4">
                      <FlagList flags={review.data.flags} />
                      <DiffSection label="Title" parts={review.data.diff.title} flags={review.data.flags} />
                      <DiffSection label="Description" parts={review.data.diff.description} flags={review.data.flags} />
                      <DiffSection
                        label="Input schema"
                        parts={review.data.diff.inputSchema}
                        flags={review.data.flags}
                        mono
                      />
                      <DiffSection
                        label="Output schema"
                        parts={review.data.diff.outputSchema}
                        flags={review.data.flags}
                        mono
                      />
                      <DiffSection
                        label="Annotations"
                        parts={review.data.diff.annotations}
                        flags={review.data.flags}
                        mono
                      />
                      <section aria-label="Held by">
                        <h3 className="text-sm font-semibold">Identities that would be offered it</h3>
                        <p className="text-sm text-muted">
                          {review.data.holders.total === 0
                            ? "No Agent Identity holds its Source."
                            : review.data.holders.items.map((h) => h.name).join(", ") +
                              (review.data.holders.total > review.data.holders.items.length
                                ? ` and ${review.data.holders.total - review.data.holders.items.length} more`
                                : "")}
                        </p>
                      </section>
                      <p className="break-all font-mono text-xs text-muted">
                        digest {review.data.digest}
                        {review.data.approvedDigest && <> · approved {review.data.approvedDigest}</>}
                      </p>
                    </div>
                  </>
                )}
              </Card>
            </div>
          )
        }
      </QueryView>
    </>
  );
}
