"use client";

import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { ListTree, Plus } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import { formatCount, formatDateTime, formatRelative } from "@/components/ui/format";
import { MoreRows } from "@/components/ui/more-rows";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";
import { useNow } from "@/components/ui/use-now";
import { useUrlSearch, useUrlState } from "@/components/ui/use-url-state";
import { ScopedPage } from "./scoped-page";
import { CreateThreadDialog } from "./thread-dialogs";
import type { ScopeItem } from "./types";

const STATUS = [
  { value: "active", label: "Active" },
  { value: "archived", label: "Archived" },
  { value: "all", label: "All" },
] as const;
type Status = (typeof STATUS)[number]["value"];

export const THREADS_PAGE = 50;

export function ThreadsPage() {
  const canWrite = useCan("curator");
  const [creating, setCreating] = useState<ScopeItem | null>(null);
  return (
    <ScopedPage
      title="Threads"
      description="Named, overlapping collections of memories in a scope. Deleting a thread keeps its memories."
      loadingLabel="Loading threads"
      actions={(scope) =>
        canWrite && (
          <Button onClick={() => setCreating(scope)}>
            <Plus className="size-4" aria-hidden /> New thread
          </Button>
        )
      }
    >
      {(scope) => (
        <>
          <ScopeThreads key={scope.id} scope={scope} onCreate={canWrite ? () => setCreating(scope) : undefined} />
          {creating && <CreateThreadDialog scope={creating} open onClose={() => setCreating(null)} />}
        </>
      )}
    </ScopedPage>
  );
}

function ScopeThreads({ scope, onCreate }: { scope: ScopeItem; onCreate?: () => void }) {
  const trpc = useTRPC();
  const now = useNow();
  const [filters, setFilters] = useUrlState(["q", "status"] as const);
  const [search, setSearch] = useUrlSearch(filters.q, setFilters);
  const status: Status = STATUS.some((s) => s.value === filters.status) ? (filters.status as Status) : "active";
  const pages = useInfiniteQuery({
    ...trpc.threads.list.infiniteQueryOptions(
      { scopeId: scope.id, search: filters.q || undefined, archived: status, limit: THREADS_PAGE },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
    placeholderData: keepPreviousData,
  });
  const rows = pages.data?.pages.flatMap((p) => p.items) ?? [];
  const total = pages.data?.pages[0]?.total ?? 0;
  const filtered = Boolean(filters.q) || status !== "active";

  return (
    <>
      <search className="mb-4 flex flex-wrap items-center gap-2">
        <label className="sr-only" htmlFor="threads-search">
          Search threads by name
        </label>
        <Input
          id="threads-search"
          type="search"
          placeholder="Search by name…"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          className="max-w-xs"
        />
        <SegmentedControl
          label="Show"
          options={STATUS}
          value={status}
          onChange={(v) => setFilters({ status: v === "active" ? null : v })}
        />
        {filtered && (
          <Button
            variant="ghost"
            onClick={() => {
              setSearch("");
              setFilters({ q: null, status: null });
            }}
          >
            Clear filters
          </Button>
        )}
      </search>
      {pages.isPending ? (
        <LoadingRows label="Loading threads" />
      ) : pages.isError ? (
        <ErrorState error={pages.error} retry={() => pages.refetch()} />
      ) : rows.length === 0 ? (
        filters.q || status === "archived" ? (
          <EmptyState title={filters.q ? "No thread matches" : "No archived threads"}>
            {filters.q ? "Try another name, or show archived threads too." : "Archived threads appear here."}
          </EmptyState>
        ) : (
          <EmptyState
            title={`No threads in “${scope.name}”`}
            icon={<ListTree className="size-8" />}
            action={
              onCreate && (
                <Button onClick={onCreate}>
                  <Plus className="size-4" aria-hidden /> New thread
                </Button>
              )
            }
          >
            A thread gathers memories about one topic: an incident, a project, a handbook. A memory can be in several.
            Agents create threads by naming them when they write.
          </EmptyState>
        )
      ) : (
        <>
          <Table
            aria-label={`Threads in ${scope.name}`}
            aria-busy={pages.isPlaceholderData}
            className={pages.isPlaceholderData ? "opacity-60" : undefined}
          >
            <thead>
              <tr>
                <Th>Name</Th>
                <Th className="text-right">Members</Th>
                <Th className="text-right">Pinned</Th>
                <Th>Updated</Th>
                {status !== "active" && <Th>State</Th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => (
                <tr key={t.id} data-testid="thread-row">
                  <Td className="max-w-md">
                    <Link href={`/memory/threads/${t.id}`} className="font-medium text-accent hover:underline">
                      {t.name}
                    </Link>
                    {t.description && <p className="truncate text-xs text-muted">{t.description}</p>}
                  </Td>
                  <Td className="text-right tabular-nums">{formatCount(t.members)}</Td>
                  <Td className="text-right tabular-nums">{t.pinned ? formatCount(t.pinned) : "—"}</Td>
                  <Td className="whitespace-nowrap text-muted">
                    <time dateTime={t.updatedAt.toISOString()} title={formatDateTime(t.updatedAt)}>
                      {formatRelative(t.updatedAt, now)}
                    </time>
                  </Td>
                  {status !== "active" && (
                    <Td>{t.archivedAt ? <Badge>Archived</Badge> : <Badge tone="ok">Active</Badge>}</Td>
                  )}
                </tr>
              ))}
            </tbody>
          </Table>
          <div className="mt-4">
            <MoreRows shown={rows.length} total={total} pages={pages} label={`Load ${THREADS_PAGE} more`} />
          </div>
        </>
      )}
    </>
  );
}
