"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Plug, Server } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { ClearFilters, FilterBar, FilterInput, FilterSelect } from "@/components/ui/filter-bar";
import { formatCount } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { useUrlSearch, useUrlState } from "@/components/ui/use-url-state";
import { AddConnectionDialog } from "./add-connection-dialog";
import { AddToolHostDialog } from "./add-tool-host-dialog";
import { CallPolicyDefaultsCard } from "./call-policy-card";
import { NetworkPolicyCard } from "./network-policy-card";
import { SourcesTable } from "./sources-table";
import type { SourceView } from "./types";

type Kind = SourceView["kind"];

const KINDS = [
  { value: "", label: "All kinds" },
  { value: "mcp_connection", label: "MCP Connections" },
  { value: "sdk_tool_host", label: "SDK Tool Hosts" },
] as const;

/** Poll fast while a check is running or about to (a new Connection is checked at once). */
function refreshEvery(sources: SourceView[] | undefined): number {
  const recent = Date.now() - 2 * 60_000;
  const busy = sources?.some(
    (s) =>
      s.checking ||
      (s.kind === "mcp_connection" && s.catalogState === "never_checked" && s.createdAt.getTime() > recent),
  );
  return busy ? 2_000 : 30_000;
}

export function SourcesPage() {
  const canWrite = useCan("operator");
  const router = useRouter();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useUrlState(["q", "kind"] as const);
  const [search, setSearch] = useUrlSearch(filters.q, setFilters);

  const kind = (filters.kind || undefined) as Kind | undefined;
  const sources = useQuery({
    ...trpc.sources.list.queryOptions({ kind, search: filters.q || undefined }),
    refetchInterval: (q) => refreshEvery(q.state.data),
  });
  const [adding, setAdding] = useState<"connection" | "host" | null>(null);
  const invalidate = () => {
    queryClient.invalidateQueries({ queryKey: trpc.sources.list.queryKey() });
    queryClient.invalidateQueries({ queryKey: trpc.catalog.facets.queryKey() });
  };
  const filtered = Boolean(filters.q || filters.kind);

  const addButtons = canWrite && (
    <>
      <Button variant="secondary" onClick={() => setAdding("host")}>
        <Server className="size-4" aria-hidden /> Add SDK Tool Host
      </Button>
      <Button onClick={() => setAdding("connection")}>
        <Plug className="size-4" aria-hidden /> Add MCP Connection
      </Button>
    </>
  );

  return (
    <>
      <PageHeader
        title="Sources"
        description="MCP Connections and SDK Tool Hosts that publish Tools, and whether their catalog is current."
        actions={addButtons || undefined}
      />
      {(filtered || (sources.data?.length ?? 0) > 0) && (
        <FilterBar className="mb-4 items-center">
          <FilterInput
            id="sources-search"
            label="Search Sources by name"
            placeholder="Search by name…"
            value={search}
            onValue={setSearch}
          />
          <FilterSelect
            id="sources-kind"
            label="Kind"
            value={filters.kind}
            onValue={(v) => setFilters({ kind: v })}
            className="w-52"
            options={KINDS}
          />
          <ClearFilters
            shown={filtered}
            onClear={() => {
              setSearch("");
              setFilters({ q: null, kind: null });
            }}
          />
          {sources.data && sources.data.length > 0 && <Summary sources={sources.data} />}
        </FilterBar>
      )}
      <QueryView
        query={sources}
        loadingLabel="Loading Sources"
        empty={
          filtered ? (
            <EmptyState title="No Sources match these filters">Try another name or kind.</EmptyState>
          ) : (
            <EmptyState
              title="No Sources yet"
              icon={<Plug className="size-8" />}
              action={addButtons && <div className="flex flex-wrap justify-center gap-2">{addButtons}</div>}
            >
              A Source publishes Tools to the catalog. An <strong>MCP Connection</strong> is a remote MCP server that
              Quartermaster checks on a schedule; an <strong>SDK Tool Host</strong> is your own process that registers
              its Tools over the HTTP API and sends heartbeats.
              {!canWrite && " An operator can add one."}
            </EmptyState>
          )
        }
      >
        {(rows) => <SourcesTable sources={rows} />}
      </QueryView>
      <NetworkPolicyCard />
      <CallPolicyDefaultsCard />
      <AddConnectionDialog
        open={adding === "connection"}
        onClose={() => setAdding(null)}
        onCreated={(source) => {
          invalidate();
          // Straight to the new Source: its first check runs there, and it can be assigned.
          router.push(`/tools/sources/${source.id}?created=1`);
        }}
      />
      <AddToolHostDialog open={adding === "host"} onClose={() => setAdding(null)} onCreated={invalidate} />
    </>
  );
}

function Summary({ sources }: { sources: SourceView[] }) {
  const failing = sources.filter((s) => s.catalogState === "failing").length;
  const silent = sources.filter((s) => s.catalogState === "host_silent").length;
  const tools = sources.reduce((n, s) => n + s.toolCount, 0);
  return (
    <p className="ml-auto text-sm text-muted">
      {formatCount(sources.length)} {sources.length === 1 ? "Source" : "Sources"} · {formatCount(tools)} Tools
      {failing > 0 && <span className="font-medium text-danger"> · {failing} failing</span>}
      {silent > 0 && <span className="font-medium text-warn"> · {silent} host silent</span>}
    </p>
  );
}
