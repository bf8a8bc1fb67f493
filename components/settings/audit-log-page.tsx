"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { ClearFilters, FilterBar, FilterInput, FilterSelect } from "@/components/ui/filter-bar";
import { PageHeader } from "@/components/ui/page-header";
import { momentColumn } from "@/components/ui/relative-time";
import { EmptyState } from "@/components/ui/states";
import { useNow } from "@/components/ui/use-now";
import { useUrlSearch, useUrlState } from "@/components/ui/use-url-state";
import { ListBody, ListStatus } from "@/components/ui/virtual-list/list-states";
import { useBlockList } from "@/components/ui/virtual-list/use-block-list";
import { type Column, VirtualTable } from "@/components/ui/virtual-list/virtual-table";
import { type AuditEvent, AuditEventDialog, pageFor } from "./audit-event-dialog";

const ACTOR_TYPES = [
  { value: "", label: "Anyone" },
  { value: "user", label: "Console users" },
  { value: "api_key", label: "API keys" },
  { value: "agent", label: "Agent Identities" },
  { value: "tool_host", label: "SDK Tool Hosts" },
  { value: "system", label: "Quartermaster" },
] as const;

type ActorType = Exclude<(typeof ACTOR_TYPES)[number]["value"], "">;

function columnsAt(now: number, open: (e: AuditEvent) => void): Column<AuditEvent>[] {
  return [
    // On a phone the action (the row's name, which opens it) takes what When and Object leave.
    momentColumn("when", "When", (e) => e.at, now, { width: "w-36 max-md:w-24" }),
    {
      key: "actor",
      wideOnly: true,
      header: "Actor",
      width: "w-[22%]",
      className: "truncate",
      cell: (e) => (
        <>
          <span className="font-medium" title={e.actorLabel}>
            {e.actorLabel}
          </span>{" "}
          <Badge className="ml-1">{e.actorType.replace("_", " ")}</Badge>
        </>
      ),
    },
    {
      key: "action",
      header: "Action",
      width: "w-[18%] max-md:w-auto",
      className: "truncate",
      cell: (e) => (
        <button
          type="button"
          onClick={() => open(e)}
          className="max-w-full truncate rounded font-mono text-xs text-accent hover:underline"
          title="Show the whole event"
        >
          {e.action}
        </button>
      ),
    },
    {
      key: "object",
      header: "Object",
      width: "w-[22%]",
      className: "truncate",
      cell: (e) => (
        <span title={e.targetLabel ?? e.targetId ?? undefined}>
          <ObjectLabel event={e} /> <span className="text-xs text-muted">{e.targetType}</span>
        </span>
      ),
    },
    {
      key: "details",
      wideOnly: true,
      header: "Details",
      className: "truncate font-mono text-xs text-muted",
      cell: (e) => {
        const text = e.details ? JSON.stringify(e.details) : "";
        return <span title={text || undefined}>{text}</span>;
      },
    },
  ];
}

export function AuditLogPage() {
  const trpc = useTRPC();
  const now = useNow();
  const [filters, setFilters] = useUrlState(["q", "actor", "action"] as const);
  const [search, setSearch] = useUrlSearch(filters.q, setFilters);
  const actorType = ACTOR_TYPES.some((a) => a.value && a.value === filters.actor)
    ? (filters.actor as ActorType)
    : undefined;

  // Newest first: a new event always reaches the first block, so a refetch of it on focus
  // (and every 30 s) says whether anything below needs one.
  const events = useBlockList(
    trpc.audit.list,
    { search: filters.q || undefined, actorType, action: filters.action || undefined },
    { unfiltered: {}, refetchInterval: 30_000 },
  );
  const narrowed = Boolean(filters.q || actorType || filters.action);
  const [shown, setShown] = useState<AuditEvent | null>(null);
  const columns = useMemo(() => columnsAt(now, setShown), [now]);
  function clearFilters() {
    setSearch("");
    setFilters({ q: null, actor: null, action: null });
  }

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change: who made it (a person, an API key, an agent or Quartermaster itself), what, when, and to which object."
      />
      <FilterBar className="mb-1">
        <FilterInput
          id="audit-search"
          label="Search the audit log"
          placeholder="Search actor, action or object…"
          value={search}
          onValue={setSearch}
          type="text"
        />
        <FilterSelect
          id="audit-actor"
          label="Actor"
          value={actorType ?? ""}
          onValue={(v) => setFilters({ actor: v })}
          className="w-48"
          options={ACTOR_TYPES}
        />
        <FilterInput
          id="audit-action"
          label="Action"
          placeholder="Action, e.g. api_key"
          value={filters.action}
          onValue={(v) => setFilters({ action: v })}
          className="w-48"
          type="text"
        />
        <ClearFilters shown={narrowed} onClear={clearFilters} />
      </FilterBar>
      <ListStatus list={events} noun={["event", "events"]} narrowed={narrowed} testId="audit-total" />
      <ListBody
        list={events}
        narrowed={narrowed}
        onClearFilters={clearFilters}
        loadingLabel="Loading the audit log"
        empty={
          <EmptyState title="No changes recorded yet">
            Changes made in the console, by API keys or by agents appear here.
          </EmptyState>
        }
        noMatch={{ body: "Try a broader search." }}
      >
        <VirtualTable
          label="Audit events"
          columns={columns}
          list={events}
          rowHeight={44}
          rowTestId="audit-row"
          scrollTestId="audit-scroll"
          minWidth="min-w-[56rem]"
        />
      </ListBody>
      {shown && <AuditEventDialog event={shown} onClose={() => setShown(null)} />}
    </>
  );
}

function ObjectLabel({ event }: { event: AuditEvent }) {
  const text = event.targetLabel ?? event.targetId ?? "—";
  const href = event.targetId ? pageFor(event.targetType, event.targetId) : null;
  return href ? (
    <Link href={href} prefetch={false} className="text-accent hover:underline">
      {text}
    </Link>
  ) : (
    <span>{text}</span>
  );
}
