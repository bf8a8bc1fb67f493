"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Plug } from "lucide-react";
import Link from "next/link";
import { useCallback } from "react";
import { useTRPC } from "@/components/trpc/client";
import { ClearFilters, FilterBar, FilterInput, FilterSelect } from "@/components/ui/filter-bar";
import { formatCount } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/states";
import { useUrlSearch, useUrlState } from "@/components/ui/use-url-state";
import { ListBody, ListStatus } from "@/components/ui/virtual-list/list-states";
import { useBlockList } from "@/components/ui/virtual-list/use-block-list";
import {
  COMPATIBILITY_LABELS,
  COMPATIBILITY_STATES,
  type CompatibilityState,
  NOT_OFFERABLE,
  NOT_OFFERABLE_LABEL,
} from "@/universal/compatibility";
import { CatalogTable, type SortDirection, TOOL_SORTS, type ToolSort } from "./catalog-table";

// Names and Sources read naturally A→Z; sizes and dates are most useful largest/newest first.
const DEFAULT_DIRECTION: Record<ToolSort, SortDirection> = {
  name: "asc",
  source: "asc",
  // Worst first: every state that refuses a model, then withdrawn Tools, then Compatible.
  compatibility: "desc",
  size: "desc",
  lastChanged: "desc",
};

const asSort = (v: string): ToolSort => ((TOOL_SORTS as readonly string[]).includes(v) ? (v as ToolSort) : "name");
type StateFilter = CompatibilityState | typeof NOT_OFFERABLE;
const asState = (v: string): StateFilter | undefined =>
  v === NOT_OFFERABLE || (COMPATIBILITY_STATES as readonly string[]).includes(v) ? (v as StateFilter) : undefined;

export function CatalogPage() {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlState(["source", "state", "q", "sort", "dir"] as const);
  const [search, setSearch] = useUrlSearch(filters.q, setFilters);

  const sort = asSort(filters.sort);
  const direction: SortDirection =
    filters.dir === "asc" || filters.dir === "desc" ? filters.dir : DEFAULT_DIRECTION[sort];
  const state = asState(filters.state);
  const input = {
    sourceId: filters.source || undefined,
    state,
    search: filters.q.trim() || undefined,
    sort,
    direction,
  };

  const facets = useQuery({
    ...trpc.catalog.facets.queryOptions({ sourceId: filters.source || undefined }),
    placeholderData: keepPreviousData,
  });
  // Any Tool may sit in any block of a sorted catalog: the facets' version (refetched on focus) says when to refetch.
  const blocks = useBlockList(trpc.catalog.listTools, input, {
    refresh: { version: facets.data?.version ?? null },
  });
  const filtered = Boolean(filters.source || filters.state || filters.q);
  // With a Source chosen, "all states" means all of that Source's Tools.
  const everything = facets.data
    ? filters.source
      ? Object.values(facets.data.states).reduce((n, c) => n + (c ?? 0), 0)
      : facets.data.total
    : undefined;
  const catalog = { ...blocks, everything };

  const onSort = useCallback(
    (next: ToolSort) => {
      const dir = next === sort ? (direction === "asc" ? "desc" : "asc") : DEFAULT_DIRECTION[next];
      // Defaults stay out of the URL so the plain catalog keeps a plain address.
      setFilters({
        sort: next === "name" ? null : next,
        dir: dir === DEFAULT_DIRECTION[next] ? null : dir,
      });
    },
    [sort, direction, setFilters],
  );
  function clearFilters() {
    setSearch("");
    setFilters({ source: null, state: null, q: null });
  }

  const knownSource = !filters.source || facets.data?.sources.some((s) => s.id === filters.source);

  return (
    <>
      <PageHeader
        title="Tools Catalog"
        description="Every Tool that any Source publishes, and whether a model can be offered it."
      />
      <FilterBar className="mb-3 items-center">
        <FilterInput
          id="catalog-search"
          label="Search Tools"
          placeholder="Search name, model-facing name, description…"
          value={search}
          onValue={setSearch}
          className="w-full md:w-80"
        />
        <FilterSelect
          id="catalog-source"
          label="Source"
          value={filters.source}
          onValue={(v) => setFilters({ source: v })}
          className="w-full md:w-56"
        >
          <option value="">All Sources</option>
          {!knownSource && <option value={filters.source}>Unknown Source</option>}
          {facets.data?.sources.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} ({formatCount(s.toolCount)})
            </option>
          ))}
        </FilterSelect>
        <FilterSelect
          id="catalog-state"
          label="Model compatibility"
          value={state ?? ""}
          onValue={(v) => setFilters({ state: v })}
          className="w-full md:w-64"
        >
          <option value="">All states{everything !== undefined ? ` (${formatCount(everything)})` : ""}</option>
          <option value={NOT_OFFERABLE}>
            {NOT_OFFERABLE_LABEL} ({formatCount(facets.data?.notOfferable ?? 0)})
          </option>
          {COMPATIBILITY_STATES.map((s) => (
            <option key={s} value={s}>
              {COMPATIBILITY_LABELS[s]} ({formatCount(facets.data?.states[s] ?? 0)})
            </option>
          ))}
        </FilterSelect>
        <ClearFilters shown={filtered} onClear={clearFilters} />
      </FilterBar>
      <ListStatus list={catalog} noun={["Tool", "Tools"]} narrowed={filtered} testId="catalog-total" />
      <ListBody
        list={catalog}
        narrowed={filtered}
        onClearFilters={clearFilters}
        loadingLabel="Loading the catalog"
        frameClassName="h-[calc(100dvh-14rem)] min-h-96"
        empty={<NoTools sourceCount={facets.data?.sources.length} />}
        noMatch={{
          title: "No Tools match these filters",
          body: "Try a shorter search, another Source or another compatibility state.",
        }}
      >
        <CatalogTable list={catalog} sort={sort} direction={direction} onSort={onSort} />
      </ListBody>
    </>
  );
}

function NoTools({ sourceCount }: { sourceCount: number | undefined }) {
  const link = (
    <Link
      href="/tools/sources"
      className="inline-flex h-9 items-center gap-1.5 rounded-md bg-accent px-3.5 text-sm font-medium text-accent-fg hover:opacity-90"
    >
      <Plug className="size-4" aria-hidden /> {sourceCount ? "Go to Sources" : "Add a Source"}
    </Link>
  );
  return sourceCount ? (
    <EmptyState title="Your Sources publish no Tools yet" action={link}>
      The catalog fills when an MCP Connection’s check succeeds or an SDK Tool Host registers. Sources shows whether a
      check failed and why.
    </EmptyState>
  ) : (
    <EmptyState title="No Tools yet" action={link}>
      The catalog lists every Tool your Sources publish. Add an MCP Connection or an SDK Tool Host to start.
    </EmptyState>
  );
}
