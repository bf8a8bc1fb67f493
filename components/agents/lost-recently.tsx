"use client";

import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { ArrowDownRight, ArrowUpRight } from "lucide-react";
import Link from "next/link";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { formatCount, formatDateTime, formatRelative } from "@/components/ui/format";
import { MoreRows } from "@/components/ui/more-rows";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";
import { useNow } from "@/components/ui/use-now";
import { useUrlState } from "@/components/ui/use-url-state";
import { COMPATIBILITY_LABELS } from "@/server/domain/catalog/compatibility";
import { toolCount } from "./labels";
import type { HoldingChange } from "./types";

type Include = "losses" | "gains" | "all";
const INCLUDE: readonly { value: Include; label: string }[] = [
  { value: "losses", label: "Losses" },
  { value: "gains", label: "Gains" },
  { value: "all", label: "All" },
];
const EMPTY: Record<Include, string> = {
  losses: "Nothing lost in the last 30 days",
  gains: "Nothing gained in the last 30 days",
  all: "No changes in the last 30 days",
};
const PAGE = 50;

/**
 * Tools lost and gained in the last 30 days, for the page header as well as the tab:
 * a one-row request, since the totals do not depend on the page or the filter.
 */
export function useHoldingChangeSummary(identityId: string) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.identities.losses.queryOptions({ id: identityId, include: "all", limit: 1 }),
    refetchInterval: 60_000,
  });
}

export function summaryText(summary: { lostTools: number; gainedTools: number }): string {
  return `Lost ${toolCount(summary.lostTools)}, gained ${formatCount(summary.gainedTools)} in the last 30 days`;
}

export function LostRecently({ identityId }: { identityId: string }) {
  const trpc = useTRPC();
  const now = useNow();
  const [params, setParams] = useUrlState(["show"] as const);
  const include: Include = params.show === "gains" || params.show === "all" ? params.show : "losses";
  const summary = useHoldingChangeSummary(identityId);
  const changes = useInfiniteQuery({
    ...trpc.identities.losses.infiniteQueryOptions(
      { id: identityId, include, limit: PAGE },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
    placeholderData: keepPreviousData,
  });
  const rows = changes.data?.pages.flatMap((p) => p.items) ?? [];
  const total = changes.data?.pages[0]?.total ?? 0;
  const since = changes.data?.pages[0]?.since;

  return (
    <section aria-labelledby="lost-heading" className="space-y-4" data-testid="lost-recently">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="lost-heading" className="text-sm font-semibold">
            Lost recently
          </h2>
          <p className="text-sm text-muted" data-testid="lost-summary">
            {summary.data ? (
              <span title={since ? `Since ${formatDateTime(since)}` : undefined}>
                {summaryText(summary.data.summary)}
              </span>
            ) : summary.isError ? (
              "The totals could not be loaded."
            ) : (
              "Counting…"
            )}
          </p>
        </div>
        <SegmentedControl
          label="Show"
          options={INCLUDE}
          value={include}
          onChange={(v) => setParams({ show: v === "losses" ? null : v })}
        />
      </div>

      {changes.isPending ? (
        <LoadingRows label="Loading recent changes" />
      ) : changes.isError ? (
        <ErrorState error={changes.error} retry={() => changes.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title={EMPTY[include]}>
          Tools removed by a catalog check, made incompatible, withdrawn by a silent SDK Tool Host or taken away by an
          unassignment show up here, with when and why.
        </EmptyState>
      ) : (
        <>
          <Table
            aria-label={INCLUDE.find((i) => i.value === include)?.label ?? "Changes"}
            aria-busy={changes.isPlaceholderData}
            // The previous view stays visible while the next loads; dimming says it is not the answer yet.
            className={changes.isPlaceholderData ? "opacity-60" : undefined}
          >
            <thead>
              <tr>
                <Th>When</Th>
                <Th>Change</Th>
                <Th>Tool</Th>
                <Th>Source</Th>
                <Th>Why</Th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id} data-testid="change-row">
                  <Td className="whitespace-nowrap text-muted">
                    <time dateTime={c.at.toISOString()} title={formatDateTime(c.at)}>
                      {formatRelative(c.at, now)}
                    </time>
                  </Td>
                  <Td>
                    {c.direction === "lost" ? (
                      <Badge tone="danger">
                        <ArrowDownRight className="size-3.5" aria-hidden /> Lost
                      </Badge>
                    ) : (
                      <Badge tone="ok">
                        <ArrowUpRight className="size-3.5" aria-hidden /> Gained
                      </Badge>
                    )}
                  </Td>
                  <Td className="max-w-xs">
                    <ChangedTools change={c} />
                  </Td>
                  <Td className="whitespace-nowrap">
                    {c.reason === "source_deleted" ? (
                      <span>{c.sourceName}</span>
                    ) : (
                      <Link href={`/tools/sources/${c.sourceId}`} className="hover:underline">
                        {c.sourceName}
                      </Link>
                    )}
                  </Td>
                  <Td>{reasonInWords(c)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
          <MoreRows shown={rows.length} total={total} pages={changes} label="Load older" />
        </>
      )}
    </section>
  );
}

function ChangedTools({ change }: { change: HoldingChange }) {
  // (Un)assignments move a whole Source's Tools at once and name none of them.
  if (change.nativeName === null) return <span className="font-medium">{toolCount(change.toolCount)}</span>;
  const name = change.modelFacingName ?? change.nativeName;
  return (
    <>
      {change.toolId ? (
        <Link
          href={`/tools/catalog/${change.toolId}`}
          className="block truncate font-mono text-xs underline-offset-2 hover:underline"
          title={name}
        >
          {name}
        </Link>
      ) : (
        <span className="block truncate font-mono text-xs" title={`${name} (no longer in the catalog)`}>
          {name}
        </span>
      )}
      {change.modelFacingName && change.modelFacingName !== change.nativeName && (
        <span className="block truncate text-xs text-muted" title={change.nativeName}>
          native: {change.nativeName}
        </span>
      )}
    </>
  );
}

function reasonInWords(c: HoldingChange): string {
  if (c.reason === "became_incompatible" && c.detail) {
    const state = COMPATIBILITY_LABELS[c.detail as keyof typeof COMPATIBILITY_LABELS] ?? c.detail;
    return `${c.reasonText}: now “${state}”`;
  }
  return c.reasonText;
}
