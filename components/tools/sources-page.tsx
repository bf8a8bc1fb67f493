"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Plug, Server } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/field";
import { formatCount } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/states";
import { useUrlSearch, useUrlState } from "@/components/ui/use-url-state";
import { AddConnectionDialog } from "./add-connection-dialog";
import { AddToolHostDialog } from "./add-tool-host-dialog";
import { NetworkPolicyCard } from "./network-policy-card";
import { SourcesTable } from "./sources-table";
import type { SourceView } from "./types";

type Kind = SourceView["kind"];

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
        <search className="mb-4 flex flex-wrap items-center gap-2">
          <label className="sr-only" htmlFor="sources-search">
            Search Sources by name
          </label>
          <Input
            id="sources-search"
            type="search"
            placeholder="Search by name…"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="max-w-xs"
          />
          <label className="sr-only" htmlFor="sources-kind">
            Kind
          </label>
          <Select
            id="sources-kind"
            value={filters.kind}
            onChange={(e) => setFilters({ kind: e.target.value })}
            className="w-52"
          >
            <option value="">All kinds</option>
            <option value="mcp_connection">MCP Connections</option>
            <option value="sdk_tool_host">SDK Tool Hosts</option>
          </Select>
          {filtered && (
            <Button
              variant="ghost"
              onClick={() => {
                setSearch("");
                setFilters({ q: null, kind: null });
              }}
            >
              Clear filters
            </Button>
          )}
          {sources.data && sources.data.length > 0 && <Summary sources={sources.data} />}
        </search>
      )}
      {sources.isPending ? (
        <LoadingRows label="Loading Sources" />
      ) : sources.isError ? (
        <ErrorState error={sources.error} retry={() => sources.refetch()} />
      ) : sources.data.length === 0 ? (
        filtered ? (
          <EmptyState title="No Sources match these filters">Try another name or kind.</EmptyState>
        ) : (
          <EmptyState
            title="No Sources yet"
            icon={<Plug className="size-8" />}
            action={addButtons && <div className="flex flex-wrap justify-center gap-2">{addButtons}</div>}
          >
            A Source publishes Tools to the catalog. An <strong>MCP Connection</strong> is a remote MCP server that
            Quartermaster checks on a schedule; an <strong>SDK Tool Host</strong> is your own process that registers its
            Tools over the HTTP API and sends heartbeats.
            {!canWrite && " An operator can add one."}
          </EmptyState>
        )
      ) : (
        <SourcesTable sources={sources.data} />
      )}
      <NetworkPolicyCard />
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
