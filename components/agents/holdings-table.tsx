"use client";

import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/field";
import { formatBytes, formatCount } from "@/components/ui/format";
import { MoreRows } from "@/components/ui/more-rows";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";
import { useUrlSearch, useUrlState } from "@/components/ui/use-url-state";
import { toolCount } from "./labels";
import type { IdentityView } from "./types";

const PAGE = 100;

/** Every Tool the identity holds, under the names its agents see. */
export function HoldingsTable({ identity }: { identity: IdentityView }) {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlState(["q", "source"] as const);
  const [search, setSearch] = useUrlSearch(filters.q, setFilters);
  const sourceId = identity.sources.some((s) => s.sourceId === filters.source) ? filters.source : "";

  const holdings = useInfiniteQuery({
    ...trpc.identities.holdings.infiniteQueryOptions(
      { id: identity.id, search: filters.q || undefined, sourceId: sourceId || undefined, limit: PAGE },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
    placeholderData: keepPreviousData,
  });
  const rows = holdings.data?.pages.flatMap((p) => p.items) ?? [];
  const total = holdings.data?.pages[0]?.total ?? 0;
  const filtered = Boolean(filters.q || sourceId);

  return (
    <section aria-labelledby="holdings-heading" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="holdings-heading" className="text-sm font-semibold">
            Tools held
          </h2>
          <p className="text-sm text-muted" aria-live="polite">
            {holdings.isPending
              ? "Counting…"
              : filtered
                ? `${formatCount(total)} of ${toolCount(identity.tools)} match`
                : `${toolCount(total)}, under the model-facing names its agents see`}
          </p>
        </div>
        <search className="flex flex-wrap gap-2">
          <label className="sr-only" htmlFor="holdings-search">
            Search held Tools
          </label>
          <Input
            id="holdings-search"
            type="search"
            placeholder="Search name or description…"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="w-64"
          />
          {identity.sources.length > 1 && (
            <>
              <label className="sr-only" htmlFor="holdings-source">
                Source
              </label>
              <Select
                id="holdings-source"
                value={sourceId}
                onChange={(e) => setFilters({ source: e.target.value })}
                className="w-48"
              >
                <option value="">All Sources</option>
                {identity.sources.map((s) => (
                  <option key={s.sourceId} value={s.sourceId}>
                    {s.name}
                  </option>
                ))}
              </Select>
            </>
          )}
          {filtered && (
            <Button
              variant="ghost"
              onClick={() => {
                setSearch("");
                setFilters({ q: null, source: null });
              }}
            >
              Clear
            </Button>
          )}
        </search>
      </div>

      {holdings.isPending ? (
        <LoadingRows label="Loading held Tools" />
      ) : holdings.isError ? (
        <ErrorState error={holdings.error} retry={() => holdings.refetch()} />
      ) : rows.length === 0 ? (
        filtered ? (
          <EmptyState title="No held Tools match">Try a broader search or all Sources.</EmptyState>
        ) : (
          <EmptyState title="Holds no Tools yet">
            {identity.sources.length === 0
              ? "Assign a Source under Sources; its Compatible Tools appear here."
              : "Its Sources publish no Compatible Tools right now (or their SDK Tool Hosts are silent)."}
          </EmptyState>
        )
      ) : (
        <>
          <Table
            aria-label="Tools held"
            aria-busy={holdings.isPlaceholderData}
            className={holdings.isPlaceholderData ? "opacity-60" : undefined}
          >
            <thead>
              <tr>
                <Th>Model-facing name</Th>
                <Th>Native name</Th>
                <Th>Source</Th>
                <Th className="text-right">Size</Th>
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => (
                <tr key={t.id} data-testid="holding-row">
                  <Td className="max-w-md">
                    <Link href={`/tools/catalog/${t.id}`} className="font-mono text-xs text-accent hover:underline">
                      {t.modelFacingName}
                    </Link>
                    {t.description && (
                      <p className="truncate text-xs text-muted" title={t.description}>
                        {t.description}
                      </p>
                    )}
                  </Td>
                  <Td className="max-w-xs truncate font-mono text-xs text-muted" title={t.nativeName}>
                    {t.nativeName}
                  </Td>
                  <Td className="whitespace-nowrap">
                    <Link href={`/tools/sources/${t.sourceId}`} className="hover:underline">
                      {t.sourceName}
                    </Link>
                  </Td>
                  <Td className="text-right tabular-nums">{formatBytes(t.bytes)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
          <MoreRows
            shown={rows.length}
            total={total}
            pages={holdings}
            label={`Load ${formatCount(Math.min(PAGE, total - rows.length))} more`}
          />
        </>
      )}
    </section>
  );
}
