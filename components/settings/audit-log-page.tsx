"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/field";
import { formatDateTime, formatRelative } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";
import { useUrlSearch, useUrlState } from "@/components/ui/use-url-state";

const ACTOR_TYPES = [
  { value: "", label: "Anyone" },
  { value: "user", label: "Console users" },
  { value: "api_key", label: "API keys" },
  { value: "agent", label: "Agent Identities" },
  { value: "tool_host", label: "SDK Tool Hosts" },
  { value: "system", label: "Quartermaster" },
] as const;

type ActorType = Exclude<(typeof ACTOR_TYPES)[number]["value"], "">;

export function AuditLogPage() {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlState(["q", "actor", "action"] as const);
  const [search, setSearch] = useUrlSearch(filters.q, setFilters);

  const events = useInfiniteQuery(
    trpc.audit.list.infiniteQueryOptions(
      {
        search: filters.q || undefined,
        actorType: (filters.actor || undefined) as ActorType | undefined,
        action: filters.action || undefined,
        limit: 50,
      },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
  );
  const rows = events.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = Boolean(filters.q || filters.actor || filters.action);

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change: who made it (a person, an API key, an agent or Quartermaster itself), what, when, and to which object."
      />
      <search className="mb-4 flex flex-wrap gap-2">
        <label className="sr-only" htmlFor="audit-search">
          Search the audit log
        </label>
        <Input
          id="audit-search"
          placeholder="Search actor, action or object…"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          className="max-w-xs"
        />
        <label className="sr-only" htmlFor="audit-actor">
          Actor
        </label>
        <Select
          id="audit-actor"
          value={filters.actor}
          onChange={(e) => setFilters({ actor: e.target.value })}
          className="w-48"
        >
          {ACTOR_TYPES.map((a) => (
            <option key={a.value} value={a.value}>
              {a.label}
            </option>
          ))}
        </Select>
        <label className="sr-only" htmlFor="audit-action">
          Action
        </label>
        <Input
          id="audit-action"
          placeholder="Action, e.g. api_key"
          value={filters.action}
          onChange={(e) => setFilters({ action: e.target.value })}
          className="w-48"
        />
        {filtered && (
          <Button
            variant="ghost"
            onClick={() => {
              setSearch("");
              setFilters({ q: null, actor: null, action: null });
            }}
          >
            Clear filters
          </Button>
        )}
      </search>
      {events.isPending ? (
        <LoadingRows label="Loading the audit log" />
      ) : events.isError ? (
        <ErrorState error={events.error} retry={() => events.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title={filtered ? "Nothing matches these filters" : "No changes recorded yet"}>
          {filtered ? "Try a broader search." : "Changes made in the console, by API keys or by agents appear here."}
        </EmptyState>
      ) : (
        <>
          <Table aria-label="Audit events">
            <thead>
              <tr>
                <Th>When</Th>
                <Th>Actor</Th>
                <Th>Action</Th>
                <Th>Object</Th>
                <Th>Details</Th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id} data-testid="audit-row">
                  <Td className="whitespace-nowrap text-muted" title={formatDateTime(e.at)}>
                    {formatRelative(e.at)}
                  </Td>
                  <Td>
                    <span className="font-medium">{e.actorLabel}</span>{" "}
                    <Badge className="ml-1">{e.actorType.replace("_", " ")}</Badge>
                  </Td>
                  <Td>
                    <code className="font-mono text-xs">{e.action}</code>
                  </Td>
                  <Td>
                    {e.targetLabel ?? e.targetId ?? "—"} <span className="text-xs text-muted">{e.targetType}</span>
                  </Td>
                  <Td
                    className="max-w-md truncate font-mono text-xs text-muted"
                    title={e.details ? JSON.stringify(e.details) : undefined}
                  >
                    {e.details ? JSON.stringify(e.details) : ""}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
          {events.hasNextPage && (
            <div className="mt-4 flex justify-center">
              <Button variant="secondary" onClick={() => events.fetchNextPage()} disabled={events.isFetchingNextPage}>
                {events.isFetchingNextPage ? "Loading…" : "Load older events"}
              </Button>
            </div>
          )}
        </>
      )}
    </>
  );
}
