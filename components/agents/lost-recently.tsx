"use client";

import { useQuery } from "@tanstack/react-query";
import { ArrowDownRight, ArrowUpRight } from "lucide-react";
import Link from "next/link";
import { useMemo } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { FilterBar, FilterInput } from "@/components/ui/filter-bar";
import { formatCount, formatDateTime, formatRelative } from "@/components/ui/format";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { EmptyState } from "@/components/ui/states";
import { useNow } from "@/components/ui/use-now";
import { useUrlSearch, useUrlState } from "@/components/ui/use-url-state";
import { ListBody, ListStatus } from "@/components/ui/virtual-list/list-states";
import { useBlockList } from "@/components/ui/virtual-list/use-block-list";
import { type Column, VirtualTable } from "@/components/ui/virtual-list/virtual-table";
import { COMPATIBILITY_LABELS } from "@/universal/compatibility";
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
const NOUNS: Record<Include, readonly [string, string]> = {
  losses: ["loss", "losses"],
  gains: ["gain", "gains"],
  all: ["change", "changes"],
};

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

const HEIGHT = "h-[calc(100dvh-11rem)] min-h-96";

function columnsAt(now: number): Column<HoldingChange>[] {
  return [
    {
      key: "when",
      header: "When",
      width: "w-36 max-md:w-24",
      className: "whitespace-nowrap text-muted",
      cell: (c) => (
        <time dateTime={c.at.toISOString()} title={formatDateTime(c.at)}>
          {formatRelative(c.at, now)}
        </time>
      ),
    },
    {
      key: "change",
      header: "Change",
      width: "w-28 max-md:w-24",
      cell: (c) =>
        c.direction === "lost" ? (
          <Badge tone="danger">
            <ArrowDownRight className="size-3.5" aria-hidden /> Lost
          </Badge>
        ) : (
          <Badge tone="ok">
            <ArrowUpRight className="size-3.5" aria-hidden /> Gained
          </Badge>
        ),
    },
    { key: "tool", header: "Tool", cell: (c) => <ChangedTools change={c} /> },
    {
      key: "source",
      header: "Source",
      width: "w-[18%]",
      className: "truncate",
      wideOnly: true,
      cell: (c) =>
        c.reason === "source_deleted" ? (
          <span title={c.sourceName}>{c.sourceName}</span>
        ) : (
          <Link href={`/tools/sources/${c.sourceId}`} prefetch={false} className="hover:underline" title={c.sourceName}>
            {c.sourceName}
          </Link>
        ),
    },
    {
      key: "why",
      header: "Why",
      width: "w-[28%]",
      className: "truncate",
      wideOnly: true,
      cell: (c) => <span title={reasonInWords(c)}>{reasonInWords(c)}</span>,
    },
  ];
}

export function LostRecently({ identityId }: { identityId: string }) {
  const trpc = useTRPC();
  const now = useNow();
  const [params, setParams] = useUrlState(["show", "lq"] as const);
  const [search, setSearch] = useUrlSearch(params.lq, setParams, "lq");
  const include: Include = params.show === "gains" || params.show === "all" ? params.show : "losses";
  const summary = useHoldingChangeSummary(identityId);
  const newest = summary.data;
  const changes = useBlockList(
    trpc.identities.losses,
    { id: identityId, include, search: params.lq || undefined },
    {
      unfiltered: { id: identityId, include },
      // The summary is polled already; any new change or one leaving the window moves its count or first row.
      refresh: { version: newest ? `${newest.total}\u0000${newest.items[0]?.id ?? ""}` : null },
    },
  );
  const narrowed = Boolean(params.lq);
  const columns = useMemo(() => columnsAt(now), [now]);
  const since = newest?.since;
  const label = INCLUDE.find((i) => i.value === include)?.label ?? "Changes";

  return (
    <section aria-labelledby="lost-heading" className="space-y-2" data-testid="lost-recently">
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
        <FilterBar className="items-center">
          <FilterInput
            id="lost-search"
            label="Search recent changes"
            placeholder="Search Tool or Source…"
            value={search}
            onValue={setSearch}
            className="w-64"
          />
          <SegmentedControl
            label="Show"
            options={INCLUDE}
            value={include}
            onChange={(v) => setParams({ show: v === "losses" ? null : v })}
          />
        </FilterBar>
      </div>
      <ListStatus list={changes} noun={NOUNS[include]} narrowed={narrowed} testId="lost-total" />
      <ListBody
        list={changes}
        narrowed={narrowed}
        onClearFilters={() => {
          setSearch("");
          setParams({ lq: null });
        }}
        loadingLabel="Loading recent changes"
        frameClassName={HEIGHT}
        empty={
          <EmptyState title={EMPTY[include]}>
            Tools removed by a catalog check, made incompatible, withdrawn by an SDK Tool Host that shut down or went
            silent, or taken away by an unassignment show up here, with when and why.
          </EmptyState>
        }
        noMatch={{ title: "No recent changes match", body: "Try a shorter search, or show gains and losses." }}
      >
        <VirtualTable
          label={label}
          columns={columns}
          list={changes}
          rowHeight={52}
          rowTestId="change-row"
          scrollTestId="lost-scroll"
          className={HEIGHT}
        />
      </ListBody>
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
          prefetch={false}
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
      {/* On a phone the Source and Why columns fold away; the Source stays under the Tool. */}
      <span className="block truncate text-xs text-muted md:hidden">{change.sourceName}</span>
    </>
  );
}

function reasonInWords(c: HoldingChange): string {
  // Held back by its Source's review policy: nothing about it is incompatible.
  if (c.reason === "became_incompatible" && c.detail === "awaiting_review")
    return "Held for an operator’s review (Tools → Review)";
  if (c.reason === "became_compatible" && c.detail === "approved") return "Approved in review";
  if (c.reason === "became_incompatible" && c.detail) {
    const state = COMPATIBILITY_LABELS[c.detail as keyof typeof COMPATIBILITY_LABELS] ?? c.detail;
    return `${c.reasonText}: now “${state}”`;
  }
  return c.reasonText;
}
