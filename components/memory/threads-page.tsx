"use client";

import { ListTree, Plus } from "lucide-react";
import Link from "next/link";
import { useMemo, useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ClearFilters, FilterBar, FilterInput } from "@/components/ui/filter-bar";
import { formatCount, formatDateTime, formatRelative } from "@/components/ui/format";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { EmptyState } from "@/components/ui/states";
import { useNow } from "@/components/ui/use-now";
import { useUrlSearch, useUrlState } from "@/components/ui/use-url-state";
import { ListBody, ListStatus } from "@/components/ui/virtual-list/list-states";
import { useBlockList } from "@/components/ui/virtual-list/use-block-list";
import { type Column, VirtualTable } from "@/components/ui/virtual-list/virtual-table";
import { ScopedPage } from "./scoped-page";
import { CreateThreadDialog } from "./thread-dialogs";
import type { ScopeItem, ThreadItem } from "./types";
import { useScopeVersion } from "./use-scope-version";

const STATUS = [
  { value: "active", label: "Active" },
  { value: "archived", label: "Archived" },
  { value: "all", label: "All" },
] as const;
type Status = (typeof STATUS)[number]["value"];

const ROW_HEIGHT = 52;

function threadColumns(withState: boolean, now: number): Column<ThreadItem>[] {
  const columns: Column<ThreadItem>[] = [
    {
      key: "name",
      header: "Name",
      cell: (t) => (
        <>
          <Link
            href={`/memory/threads/${t.id}`}
            prefetch={false}
            className="block truncate font-medium text-accent hover:underline"
            title={t.name}
          >
            {t.name}
          </Link>
          {t.description && (
            <p className="truncate text-xs text-muted" title={t.description}>
              {t.description}
            </p>
          )}
        </>
      ),
    },
    {
      key: "members",
      header: "Members",
      width: "w-28",
      headerClassName: "text-right",
      className: "text-right tabular-nums",
      cell: (t) => formatCount(t.members),
    },
    {
      key: "pinned",
      header: "Pinned",
      width: "w-24",
      headerClassName: "text-right",
      className: "text-right tabular-nums",
      cell: (t) => (t.pinned ? formatCount(t.pinned) : "—"),
    },
    {
      key: "updated",
      header: "Updated",
      width: "w-40",
      className: "truncate text-muted",
      cell: (t) => (
        <time dateTime={t.updatedAt.toISOString()} title={formatDateTime(t.updatedAt)}>
          {formatRelative(t.updatedAt, now)}
        </time>
      ),
    },
  ];
  if (withState)
    columns.push({
      key: "state",
      header: "State",
      width: "w-28",
      cell: (t) => (t.archivedAt ? <Badge>Archived</Badge> : <Badge tone="ok">Active</Badge>),
    });
  return columns;
}

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
  const { version } = useScopeVersion(scope.id);
  const threads = useBlockList(
    trpc.threads.list,
    { scopeId: scope.id, search: filters.q || undefined, archived: status },
    { refresh: { version }, unfiltered: { scopeId: scope.id, archived: status } },
  );
  const columns = useMemo(() => threadColumns(status !== "active", now), [status, now]);
  const searched = Boolean(filters.q);
  const filtered = searched || status !== "active";
  const clear = () => {
    setSearch("");
    setFilters({ q: null, status: null });
  };

  return (
    <>
      <FilterBar className="mb-4 items-center">
        <FilterInput
          id="threads-search"
          label="Search threads by name"
          placeholder="Search by name…"
          value={search}
          onValue={setSearch}
        />
        <SegmentedControl
          label="Show"
          options={STATUS}
          value={status}
          onChange={(v) => setFilters({ status: v === "active" ? null : v })}
        />
        <ClearFilters shown={filtered} onClear={clear} />
      </FilterBar>
      <ListStatus list={threads} noun={["thread", "threads"]} narrowed={searched} testId="threads-total">
        {!threads.isPending && status !== "active" && (status === "archived" ? ", archived" : ", active and archived")}
      </ListStatus>
      <ListBody
        list={threads}
        narrowed={searched}
        onClearFilters={clear}
        loadingLabel="Loading threads"
        noMatch={{ title: "No thread matches", body: "Try another name, or show archived threads too." }}
        empty={
          status === "archived" ? (
            <EmptyState title="No archived threads">Archived threads appear here.</EmptyState>
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
        }
      >
        <VirtualTable
          label={`Threads in ${scope.name}`}
          columns={columns}
          list={threads}
          rowHeight={ROW_HEIGHT}
          rowTestId="thread-row"
          scrollTestId="threads-scroll"
          fitRows={threads.total > 14 ? undefined : 14}
          minWidth="min-w-[40rem]"
        />
      </ListBody>
    </>
  );
}
