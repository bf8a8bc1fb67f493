"use client";

import Link from "next/link";
import { useMemo } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { ClearFilters, FilterBar, FilterInput, FilterSelect } from "@/components/ui/filter-bar";
import { formatBytes } from "@/components/ui/format";
import { EmptyState } from "@/components/ui/states";
import { useUrlSearch, useUrlState } from "@/components/ui/use-url-state";
import { ListBody, ListStatus } from "@/components/ui/virtual-list/list-states";
import { useBlockList } from "@/components/ui/virtual-list/use-block-list";
import { type Column, VirtualTable } from "@/components/ui/virtual-list/virtual-table";
import { PinButton } from "./pin-button";
import type { IdentityView } from "./types";

type Holding = {
  id: string;
  modelFacingName: string;
  nativeName: string;
  description: string;
  sourceId: string;
  sourceName: string;
  bytes: number;
};

const HEIGHT = "h-[calc(100dvh-11rem)] min-h-96";

const BASE_COLUMNS: Column<Holding>[] = [
  {
    key: "name",
    header: "Model-facing name",
    cell: (t) => (
      <>
        <Link
          href={`/tools/catalog/${t.id}`}
          prefetch={false}
          className="block truncate font-mono text-xs text-accent hover:underline"
          title={t.modelFacingName}
        >
          {t.modelFacingName}
        </Link>
        <p className="truncate text-xs text-muted" title={t.description || undefined}>
          {t.description || "No description"}
        </p>
      </>
    ),
  },
  {
    key: "native",
    header: "Native name",
    width: "w-[24%]",
    className: "truncate font-mono text-xs text-muted",
    cell: (t) => <span title={t.nativeName}>{t.nativeName}</span>,
  },
  {
    key: "source",
    header: "Source",
    width: "w-[18%]",
    className: "truncate",
    cell: (t) => (
      <Link href={`/tools/sources/${t.sourceId}`} prefetch={false} className="hover:underline" title={t.sourceName}>
        {t.sourceName}
      </Link>
    ),
  },
  {
    key: "size",
    header: "Size",
    width: "w-24",
    headerClassName: "text-right",
    className: "text-right tabular-nums",
    cell: (t) => formatBytes(t.bytes),
  },
];

/** The columns, with a pin toggle for the identity's selection (operators) or a "Pinned" mark. */
function columnsFor(identityId: string, pinned: ReadonlySet<string>, canWrite: boolean): Column<Holding>[] {
  return [
    ...BASE_COLUMNS,
    {
      key: "pin",
      header: "Listing",
      width: "w-28",
      cell: (t) =>
        canWrite ? (
          <PinButton
            identityId={identityId}
            name={t.modelFacingName}
            pinned={pinned.has(t.modelFacingName)}
            label={t.modelFacingName}
          />
        ) : pinned.has(t.modelFacingName) ? (
          <span className="text-xs text-muted">Pinned</span>
        ) : null,
    },
  ];
}

/** Every Tool the identity holds, under the names its agents see. */
export function HoldingsTable({ identity }: { identity: IdentityView }) {
  const trpc = useTRPC();
  const canWrite = useCan("operator");
  const pinnedNames = identity.listing.pinned;
  const columns = useMemo(
    () => columnsFor(identity.id, new Set(pinnedNames), canWrite),
    [identity.id, pinnedNames, canWrite],
  );
  const [filters, setFilters] = useUrlState(["q", "source"] as const);
  const [search, setSearch] = useUrlSearch(filters.q, setFilters);
  const sourceId = identity.sources.some((s) => s.sourceId === filters.source) ? filters.source : "";
  const narrowed = Boolean(filters.q || sourceId);

  const holdings = useBlockList(
    trpc.identities.holdings,
    { id: identity.id, search: filters.q || undefined, sourceId: sourceId || undefined },
    // identities.get is polled already: its version says when held Tools changed.
    { refresh: { version: identity.holdingsVersion } },
  );
  const list = { ...holdings, everything: identity.tools };
  function clearFilters() {
    setSearch("");
    setFilters({ q: null, source: null });
  }

  return (
    <section aria-labelledby="holdings-heading" className="space-y-2">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="holdings-heading" className="text-sm font-semibold">
          Tools held
        </h2>
        <FilterBar className="mb-0">
          <FilterInput
            id="holdings-search"
            label="Search held Tools"
            placeholder="Search name or description…"
            value={search}
            onValue={setSearch}
            className="w-64"
          />
          {identity.sources.length > 1 && (
            <FilterSelect
              id="holdings-source"
              label="Source"
              value={sourceId}
              onValue={(v) => setFilters({ source: v })}
              className="w-48"
            >
              <option value="">All Sources</option>
              {identity.sources.map((s) => (
                <option key={s.sourceId} value={s.sourceId}>
                  {s.name}
                </option>
              ))}
            </FilterSelect>
          )}
          <ClearFilters shown={narrowed} onClear={clearFilters} />
        </FilterBar>
      </div>
      <ListStatus list={list} noun={["Tool", "Tools"]} narrowed={narrowed} testId="holdings-total">
        {!narrowed && !list.isPending && ", under the model-facing names its agents see"}
      </ListStatus>
      <ListBody
        list={list}
        narrowed={narrowed}
        onClearFilters={clearFilters}
        loadingLabel="Loading held Tools"
        frameClassName={HEIGHT}
        empty={
          <EmptyState title="Holds no Tools yet">
            {identity.sources.length === 0
              ? "Assign a Source under Sources; its Compatible Tools appear here."
              : "Its Sources publish no Compatible Tools right now (or their SDK Tool Hosts are silent)."}
          </EmptyState>
        }
        noMatch={{ title: "No held Tools match", body: "Try a broader search or all Sources." }}
      >
        <VirtualTable
          label="Tools held"
          columns={columns}
          list={list}
          rowHeight={52}
          rowTestId="holding-row"
          scrollTestId="holdings-scroll"
          className={HEIGHT}
        />
      </ListBody>
    </section>
  );
}
