"use client";

import { useQuery } from "@tanstack/react-query";
import { SearchX } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Input, Select } from "@/components/ui/field";
import { formatCount } from "@/components/ui/format";
import { MoreRows } from "@/components/ui/more-rows";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/states";
import { useDebounced } from "@/components/ui/use-debounced";
import { useUrlSearch, useUrlState } from "@/components/ui/use-url-state";
import { isKind, joinParam, KIND_LABELS, listParam, MEMORY_KINDS } from "./labels";
import { MemoryHit } from "./memory-hit";
import { ScopedPage } from "./scoped-page";
import { SignalLegend } from "./score-breakdown";
import type { ScopeItem } from "./types";
import { useMemorySearch } from "./use-memory-search";

const FILTERS = ["q", "kind", "tags", "thread", "from", "to", "history"] as const;

export function MemoriesPage() {
  return (
    <ScopedPage
      title="Memories"
      description="Search a scope's memories the way agents do: every filter stays in the address, and each hit shows its score and what it is made of."
      loadingLabel="Loading memories"
    >
      {(scope) => <ScopeMemories key={scope.id} scope={scope} />}
    </ScopedPage>
  );
}

/** A date input's day (local time) as the start of that day; `end` gives the start of the next. */
function dayBound(value: string, end = false): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const d = new Date(`${value}T00:00:00`);
  if (Number.isNaN(d.getTime())) return undefined;
  if (end) d.setDate(d.getDate() + 1);
  return d;
}

function ScopeMemories({ scope }: { scope: ScopeItem }) {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlState(FILTERS);
  const [search, setSearch] = useUrlSearch(filters.q, setFilters);
  const kinds = listParam(filters.kind).filter(isKind);
  const tags = listParam(filters.tags.toLowerCase());
  const from = dayBound(filters.from);
  const to = dayBound(filters.to, true);
  const history = filters.history === "1";

  const threads = useQuery(trpc.threads.list.queryOptions({ scopeId: scope.id, archived: "all", limit: 500 }));
  const { pages, rows, total, time } = useMemorySearch({
    scopeId: scope.id,
    query: filters.q,
    kinds: kinds.length ? kinds : undefined,
    tags: tags.length ? tags : undefined,
    threadId: filters.thread || undefined,
    from,
    to,
    includeSuperseded: history,
  });
  const filtered = FILTERS.some((k) => filters[k]);
  const clear = () => {
    setSearch("");
    setFilters({ q: null, kind: null, tags: null, thread: null, from: null, to: null, history: null });
  };
  const toggleKind = (kind: string) =>
    setFilters({ kind: joinParam(kinds.includes(kind as never) ? kinds.filter((k) => k !== kind) : [...kinds, kind]) });

  return (
    <>
      <search className="mb-4 space-y-3" aria-label="Memory filters">
        <div className="flex flex-wrap items-center gap-2">
          <label className="sr-only" htmlFor="memory-search">
            Search memories
          </label>
          <Input
            id="memory-search"
            type="search"
            placeholder="Words, a question or a phrase…"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="max-w-md flex-1"
            maxLength={1000}
          />
          <TagsInput value={filters.tags} onChange={(v) => setFilters({ tags: v || null })} />
          <label className="sr-only" htmlFor="memory-thread">
            Thread
          </label>
          <Select
            id="memory-thread"
            value={filters.thread}
            onChange={(e) => setFilters({ thread: e.target.value })}
            className="w-56"
          >
            <option value="">Any thread</option>
            {filters.thread && !threads.data?.items.some((t) => t.id === filters.thread) && (
              <option value={filters.thread}>{threads.isPending ? "Loading…" : "A thread not listed"}</option>
            )}
            {threads.data?.items.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
                {t.archivedAt ? " (archived)" : ""}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <fieldset className="flex flex-wrap items-center gap-1.5">
            <legend className="sr-only">Kinds</legend>
            {MEMORY_KINDS.map((k) => (
              <Chip key={k} checked={kinds.includes(k)} onChange={() => toggleKind(k)}>
                {KIND_LABELS[k]}
              </Chip>
            ))}
          </fieldset>
          <div className="flex items-center gap-1.5 text-sm">
            <label htmlFor="memory-from" className="text-muted">
              From
            </label>
            <Input
              id="memory-from"
              type="date"
              value={filters.from}
              max={filters.to || undefined}
              onChange={(e) => setFilters({ from: e.target.value })}
              className="w-40"
            />
            <label htmlFor="memory-to" className="text-muted">
              to
            </label>
            <Input
              id="memory-to"
              type="date"
              value={filters.to}
              min={filters.from || undefined}
              onChange={(e) => setFilters({ to: e.target.value })}
              className="w-40"
            />
          </div>
          <label className="inline-flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={history}
              onChange={(e) => setFilters({ history: e.target.checked ? "1" : null })}
              className="size-4 accent-[var(--accent)]"
            />
            Include superseded and discarded
          </label>
          {filtered && (
            <Button variant="ghost" size="sm" onClick={clear}>
              Clear filters
            </Button>
          )}
        </div>
      </search>

      {pages.isPending ? (
        <LoadingRows label="Searching memories" />
      ) : pages.isError ? (
        <ErrorState error={pages.error} retry={() => pages.refetch()} />
      ) : rows.length === 0 ? (
        filtered ? (
          <EmptyState
            title="No memory matches"
            icon={<SearchX className="size-8" />}
            action={
              <Button variant="secondary" onClick={clear}>
                Clear filters
              </Button>
            }
          >
            {history ? "Try fewer words or a wider time range." : "Try fewer words, or include superseded memories."}
          </EmptyState>
        ) : (
          <EmptyState title={`“${scope.name}” holds no memories yet`}>
            Agents write memories through <code className="font-mono">/mcp</code> with a write grant for this scope;
            curators through the API or by importing a scope.
          </EmptyState>
        )
      ) : (
        <section aria-label="Results" aria-busy={pages.isPlaceholderData}>
          <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2 text-sm">
            <p className="text-muted" data-testid="result-summary">
              {filters.q ? (
                <>
                  {formatCount(total)} {total === 1 ? "memory" : "memories"} found, best first
                  {time && <> · the query names a date, so memories from then rank higher</>}
                </>
              ) : (
                <>
                  {formatCount(total)} {total === 1 ? "memory" : "memories"}, newest first
                </>
              )}
            </p>
            {filters.q && <SignalLegend />}
          </div>
          <ol className={cn("space-y-3", pages.isPlaceholderData && "opacity-60")}>
            {rows.map((hit) => (
              <li key={hit.id}>
                <MemoryHit hit={hit} scored={Boolean(filters.q)} />
              </li>
            ))}
          </ol>
          <div className="mt-4">
            <MoreRows shown={rows.length} total={total} pages={pages} label="Load more" />
          </div>
        </section>
      )}
    </>
  );
}

/** Tags (comma-separated), applied once typing pauses; a hit must carry every one. */
function TagsInput({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const [text, setText] = useState(value);
  const settled = useDebounced(text, 400);
  useEffect(() => {
    const normal = joinParam(listParam(settled.toLowerCase())) ?? "";
    if (normal !== value) onChange(normal);
  }, [settled, value, onChange]);
  // The address changed from elsewhere (Clear filters, a link): follow it.
  useEffect(() => {
    setText((t) => ((joinParam(listParam(t.toLowerCase())) ?? "") === value ? t : value));
  }, [value]);
  return (
    <>
      <label className="sr-only" htmlFor="memory-tags">
        Tags (comma-separated; every one must match)
      </label>
      <Input
        id="memory-tags"
        placeholder="Tags, e.g. payments-api, incident"
        value={text}
        onChange={(e) => setText(e.target.value)}
        className="w-64"
      />
    </>
  );
}

function Chip({ checked, onChange, children }: { checked: boolean; onChange: () => void; children: ReactNode }) {
  return (
    <label className="relative">
      <input type="checkbox" checked={checked} onChange={onChange} className="peer sr-only" />
      <span
        className={cn(
          "block cursor-pointer rounded-full border px-2.5 py-0.5 text-xs font-medium peer-focus-visible:outline-2 peer-focus-visible:outline-offset-1 peer-focus-visible:outline-focus",
          checked ? "border-accent bg-accent-soft text-accent" : "border-border text-muted hover:text-fg",
        )}
      >
        {children}
      </span>
    </label>
  );
}
