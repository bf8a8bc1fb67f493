"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/field";
import { FilterBar, FilterInput, FilterSelect } from "@/components/ui/filter-bar";
import { formatCount, formatDateTime, formatRelative } from "@/components/ui/format";
import { EmptyState } from "@/components/ui/states";
import { useDebounced } from "@/components/ui/use-debounced";
import { useNow } from "@/components/ui/use-now";
import { useUrlSearch, useUrlState } from "@/components/ui/use-url-state";
import { ListBody, ListStatus } from "@/components/ui/virtual-list/list-states";
import { useBlockList } from "@/components/ui/virtual-list/use-block-list";
import { type Column, VirtualTable } from "@/components/ui/virtual-list/virtual-table";
import { isKind, joinParam, KIND_LABELS, listParam, MEMORY_KINDS } from "./labels";
import { FlaggedBadge, HeldBadge, KindBadge, StateBadge } from "./memory-badges";
import { ScopedPage } from "./scoped-page";
import { ScoreBreakdown, SignalLegend } from "./score-breakdown";
import type { MemoryRow, ScopeItem } from "./types";
import { useScopeVersion } from "./use-scope-version";

const FILTERS = [
  "q",
  "kind",
  "tags",
  "thread",
  "from",
  "to",
  "history",
  "flagged",
  // Provenance (docs/decisions/0089): how it was written, and the token, Tool Call or client.
  "via",
  "token",
  "callId",
  "clientName",
] as const;

const VIA_OPTIONS = [
  ["", "Written through anything"],
  ["mcp", "By agents over /mcp"],
  ["console", "In the console"],
  ["api", "With an API key"],
  ["system", "By Quartermaster"],
  ["unknown", "Provenance unknown"],
] as const;
type Via = "mcp" | "console" | "api" | "system" | "unknown";
const isVia = (v: string): v is Via => VIA_OPTIONS.some(([value]) => value && value === v);

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

/** The first line of the body below the title, for a row's one line of text. */
function snippet(body: string, title: string): string {
  const text = body.replace(/\s+/g, " ").trim();
  return text.startsWith(title) ? text.slice(title.length).trim() : text;
}

/** Pixels per row: the title line and one line of body. */
const ROW_HEIGHT = 60;

function memoryColumns(scored: boolean, now: number): Column<MemoryRow>[] {
  const columns: Column<MemoryRow>[] = [
    {
      key: "memory",
      header: "Memory",
      cell: (m) => (
        <div className="min-w-0">
          <p className="flex min-w-0 items-center gap-2 text-sm">
            <KindBadge kind={m.kind} />
            <Link
              href={`/memory/memories/${m.id}`}
              prefetch={false}
              className="min-w-0 truncate font-medium text-accent hover:underline"
              title={m.title}
            >
              {m.title || "(untitled)"}
            </Link>
            {m.state !== "current" && <StateBadge state={m.state} />}
            <FlaggedBadge flagged={m.flagged} reasons={m.flagReasons} />
            <HeldBadge quarantined={m.quarantined} />
            {scored && (
              // On a phone the score column folds away; the total stays beside the title.
              <span className="ml-auto shrink-0 font-mono text-xs tabular-nums text-muted md:hidden" title="Score">
                {m.score.toFixed(2)}
              </span>
            )}
          </p>
          <p className="truncate text-xs text-muted" data-testid="hit-body">
            {snippet(m.body, m.title)}
            {m.truncated && "…"}
          </p>
        </div>
      ),
    },
    {
      key: "tags",
      header: "Tags",
      width: "w-[12%]",
      className: "truncate",
      wideOnly: true,
      cell: (m) => (
        <span title={m.tags.join(", ") || undefined}>
          {m.tags.map((t) => (
            <Badge key={t} className="mr-1 font-normal">
              {t}
            </Badge>
          ))}
        </span>
      ),
    },
    {
      key: "when",
      header: "Happened",
      width: "w-48",
      className: "text-xs text-muted",
      wideOnly: true,
      cell: (m) => (
        <>
          <time
            className="block truncate"
            dateTime={m.occurredAt.toISOString()}
            title={`Happened ${formatDateTime(m.occurredAt)}`}
          >
            {formatRelative(m.occurredAt, now)}
          </time>
          <span className="block truncate" title={m.authorLabel}>
            {m.authorLabel}
          </span>
        </>
      ),
    },
  ];
  if (scored)
    columns.push({
      key: "score",
      header: "Score",
      width: "w-96",
      headerClassName: "text-right",
      wideOnly: true,
      cell: (m) => <ScoreBreakdown score={m.score} signals={m.signals} compact />,
    });
  return columns;
}

function ScopeMemories({ scope }: { scope: ScopeItem }) {
  const trpc = useTRPC();
  const now = useNow();
  const [filters, setFilters] = useUrlState(FILTERS);
  const [search, setSearch] = useUrlSearch(filters.q, setFilters);
  const kinds = listParam(filters.kind).filter(isKind);
  const tags = listParam(filters.tags.toLowerCase());
  const from = dayBound(filters.from);
  const to = dayBound(filters.to, true);
  const history = filters.history === "1";

  const threads = useQuery(trpc.threads.list.queryOptions({ scopeId: scope.id, archived: "all", limit: 500 }));
  const { version } = useScopeVersion(scope.id);
  const memories = useBlockList(
    trpc.memories.list,
    {
      scopeId: scope.id,
      query: filters.q,
      kinds: kinds.length ? kinds : undefined,
      tags: tags.length ? tags : undefined,
      threadId: filters.thread || undefined,
      from,
      to,
      includeSuperseded: history,
      flagged: filters.flagged === "1" ? true : undefined,
      writtenVia: isVia(filters.via) ? filters.via : undefined,
      authorTokenId: filters.token || undefined,
      callId: filters.callId || undefined,
      clientName: filters.clientName || undefined,
    },
    // Every write to the scope moves its version; nothing else refetches the blocks.
    { refresh: { version }, unfiltered: { scopeId: scope.id, query: "", includeSuperseded: history } },
  );
  // Rows are shown only for exactly the search typed: while it waits for typing to pause, or
  // its first block loads over the previous filters' rows, the list says it is searching.
  const settling = search !== filters.q;
  const searching = settling || memories.stale;
  const scored = Boolean(filters.q);
  // useNow ticks every 30 s: the rows re-render then, for their relative times.
  const columns = useMemo(() => memoryColumns(scored, now), [scored, now]);
  const narrowed = FILTERS.some((k) => filters[k]);
  // History alone widens the list rather than narrowing it: its N counts the history too.
  const onlyHistory = FILTERS.every((k) => k === "history" || !filters[k]);
  const clear = () => {
    setSearch("");
    setFilters({
      q: null,
      kind: null,
      tags: null,
      thread: null,
      from: null,
      to: null,
      history: null,
      flagged: null,
      via: null,
      token: null,
      callId: null,
      clientName: null,
    });
  };
  const toggleKind = (kind: string) =>
    setFilters({ kind: joinParam(kinds.includes(kind as never) ? kinds.filter((k) => k !== kind) : [...kinds, kind]) });
  const matched = memories.head?.matched ?? 0;
  const matchedMore = scored && matched > memories.total;

  return (
    <>
      <FilterBar stacked label="Memory filters">
        <div className="flex flex-wrap items-center gap-2">
          <FilterInput
            id="memory-search"
            label="Search memories"
            placeholder="Words, a question or a phrase…"
            value={search}
            onValue={setSearch}
            className="w-full md:w-auto md:max-w-md md:flex-1"
            maxLength={1000}
          />
          <TagsInput value={filters.tags} onChange={(v) => setFilters({ tags: v || null })} />
          <FilterSelect
            id="memory-thread"
            label="Thread"
            value={filters.thread}
            onValue={(v) => setFilters({ thread: v })}
            className="w-full md:w-56"
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
          </FilterSelect>
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
          <div className="flex flex-wrap items-center gap-1.5 text-sm">
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
          <label className="inline-flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={filters.flagged === "1"}
              onChange={(e) => setFilters({ flagged: e.target.checked ? "1" : null })}
              className="size-4 accent-[var(--accent)]"
            />
            Only flagged
          </label>
          <label className="inline-flex items-center gap-2 text-sm">
            <span className="sr-only">Written through</span>
            <select
              value={isVia(filters.via) ? filters.via : ""}
              onChange={(e) => setFilters({ via: e.target.value || null })}
              className="h-8 rounded-md border border-border bg-surface px-2 text-sm"
              data-testid="via-filter"
            >
              {VIA_OPTIONS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          {filters.callId && <Badge>Tool Call {filters.callId.slice(0, 8)}…</Badge>}
          {filters.clientName && <Badge>Client {filters.clientName}</Badge>}
          {filters.token && <Badge>Token {filters.token.slice(0, 16)}…</Badge>}
          {narrowed && (
            <Button variant="ghost" size="sm" onClick={clear}>
              Clear filters
            </Button>
          )}
        </div>
      </FilterBar>
      <div className="flex items-center justify-between gap-3">
        <div className="min-w-0 flex-1">
          {searching ? (
            <p
              role="status"
              aria-live="polite"
              className="h-8 truncate text-sm leading-8 text-muted"
              data-testid="result-summary"
            >
              {search.trim() ? `Searching for “${search.trim()}”…` : "Loading memories…"}
            </p>
          ) : (
            <ListStatus
              list={memories}
              noun={["memory", "memories"]}
              narrowed={narrowed && !onlyHistory}
              testId="result-summary"
            >
              {!memories.isPending &&
                (scored ? (
                  <>
                    , best first
                    {matchedMore && ` (the best ${formatCount(memories.total)} of ${formatCount(matched)} matches)`}
                    {memories.head?.time && " · the query names a date, so memories from then rank higher"}
                  </>
                ) : (
                  ", newest first"
                ))}
            </ListStatus>
          )}
        </div>
        {scored && !searching && <SignalLegend />}
      </div>
      <ListBody
        list={searching ? { ...memories, isPending: true } : memories}
        narrowed={narrowed}
        onClearFilters={clear}
        loadingLabel="Searching memories"
        noMatch={{
          title: "No memory matches",
          body: history ? "Try fewer words or a wider time range." : "Try fewer words, or include superseded memories.",
        }}
        empty={
          <EmptyState title={`“${scope.name}” holds no memories yet`}>
            Agents write memories through <code className="font-mono">/mcp</code> with a write grant for this scope;
            curators through the API or by importing a scope.
          </EmptyState>
        }
      >
        <VirtualTable
          label={scored ? "Results" : `Memories in ${scope.name}`}
          columns={columns}
          list={memories}
          rowHeight={ROW_HEIGHT}
          rowTestId="memory-hit"
          scrollTestId="memories-scroll"
        />
      </ListBody>
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
    <FilterInput
      id="memory-tags"
      label="Tags (comma-separated; every one must match)"
      placeholder="Tags, e.g. payments-api, incident"
      value={text}
      onValue={setText}
      className="w-full md:w-64"
      type="text"
    />
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
