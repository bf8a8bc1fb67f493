"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Download, Pencil, Play, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC, useTRPCClient } from "@/components/trpc/client";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Facts } from "@/components/ui/facts";
import { formatBytes, formatCount, formatDateTime, formatRelative } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { DetailQuery, QueryView } from "@/components/ui/query-view";
import { errorMessage } from "@/components/ui/use-error";
import { GrantsTable } from "./grants-table";
import { intervalLabel, ScopeFormDialog } from "./scope-form-dialog";
import { AgentWritesCard, RetentionCard } from "./scope-trust";
import type { ScopeItem } from "./types";
import { rememberScope } from "./use-memory-scope";

export function ScopeDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const scope = useQuery(trpc.scopes.get.queryOptions({ scopeId: id }));
  return (
    <DetailQuery
      query={scope}
      parent={{ href: "/memory/scopes", label: "Scopes" }}
      noun="Scope"
      loadingLabel="Loading the scope"
      missing={{ title: "This scope does not exist", body: "It may have been deleted." }}
    >
      {(data) => <ScopeLoaded scope={data} />}
    </DetailQuery>
  );
}

function ScopeLoaded({ scope }: { scope: ScopeItem }) {
  const canWrite = useCan("curator");
  const isAdmin = useCan("admin");
  const [dialog, setDialog] = useState<"edit" | "delete" | null>(null);
  const q = `?scope=${encodeURIComponent(scope.id)}`;
  useEffect(() => rememberScope(scope.id), [scope.id]);

  return (
    <>
      <Breadcrumbs items={[{ href: "/memory/scopes", label: "Scopes" }, { label: scope.name }]} />
      <PageHeader
        title={scope.name}
        description={scope.description || undefined}
        actions={
          <>
            <ExportButton scope={scope} />
            {canWrite && (
              <Button variant="secondary" onClick={() => setDialog("edit")}>
                <Pencil className="size-4" aria-hidden /> Edit
              </Button>
            )}
            {isAdmin && (
              <Button variant="danger" onClick={() => setDialog("delete")}>
                <Trash2 className="size-4" aria-hidden /> Delete…
              </Button>
            )}
          </>
        }
      />
      <div className="space-y-6">
        <Card>
          <CardHeader title="At a glance" actions={canWrite && <RunNow scope={scope} />} />
          <div className="p-4">
            <Facts
              items={[
                {
                  label: "Current memories",
                  value: (
                    <Link href={`/memory/memories${q}`} className="text-accent hover:underline">
                      {formatCount(scope.memories)}
                    </Link>
                  ),
                },
                {
                  label: "Active threads",
                  value: (
                    <Link href={`/memory/threads${q}`} className="text-accent hover:underline">
                      {formatCount(scope.threads)}
                    </Link>
                  ),
                },
                {
                  label: "Pending proposals",
                  value: (
                    <Link href={`/memory/proposals${q}`} className="text-accent hover:underline">
                      {formatCount(scope.pendingProposals)}
                    </Link>
                  ),
                },
                { label: "Consolidator", value: intervalLabel(scope.consolidateEverySeconds) },
                {
                  label: "Last consolidated",
                  value: scope.lastConsolidatedAt ? (
                    <time title={formatDateTime(scope.lastConsolidatedAt)}>
                      {formatRelative(scope.lastConsolidatedAt)}
                    </time>
                  ) : (
                    "Never"
                  ),
                },
                {
                  label: "Next pass",
                  value: scope.nextConsolidationAt ? formatDateTime(scope.nextConsolidationAt) : "Not scheduled",
                },
                { label: "Created", value: formatDateTime(scope.createdAt) },
              ]}
            />
          </div>
        </Card>
        <Card>
          <CardHeader
            title="Agent Identities with access"
            description="Agents reach a scope only through a grant: read lets them search and read; write also lets them remember and decide proposals."
          />
          <div className="p-4">
            <ScopeGrants scope={scope} />
          </div>
        </Card>
        <AgentWritesCard scope={scope} />
        <RetentionCard scope={scope} />
      </div>
      {dialog === "edit" && <ScopeFormDialog scope={scope} open onClose={() => setDialog(null)} />}
      {dialog === "delete" && <DeleteScopeDialog scope={scope} onClose={() => setDialog(null)} />}
    </>
  );
}

function ScopeGrants({ scope }: { scope: ScopeItem }) {
  const trpc = useTRPC();
  const grants = useQuery(trpc.scopes.grants.queryOptions({ scopeId: scope.id }));
  const identities = useQuery(trpc.identities.list.queryOptions({}));
  return (
    <QueryView query={grants} loadingRows={2} loadingLabel="Loading grants">
      {(granted) => {
        const held = new Set(granted.map((g) => g.identityId));
        return (
          <GrantsTable
            what="Agent Identity"
            rows={granted.map((g) => ({
              scopeId: scope.id,
              identityId: g.identityId,
              label: g.identityName,
              href: `/agents/${g.identityId}?tab=memory`,
              access: g.access,
              grantedAt: g.grantedAt,
            }))}
            candidates={(identities.data ?? [])
              .filter((i) => !held.has(i.id))
              .map((i) => ({ value: i.id, label: i.name }))}
            onGrantTarget={(identityId) => ({ scopeId: scope.id, identityId })}
            emptyText="No Agent Identity can read or write this scope yet."
          />
        );
      }}
    </QueryView>
  );
}

function RunNow({ scope }: { scope: ScopeItem }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const run = useMutation(
    trpc.consolidator.run.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.scopes.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.proposals.pathKey() }),
        ]),
    }),
  );
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span role="status" className="text-muted">
        {run.data &&
          (run.data.filed
            ? `Filed ${formatCount(run.data.filed)} new ${run.data.filed === 1 ? "proposal" : "proposals"}.`
            : "Nothing new to propose.")}
        {run.error && <span className="text-danger">{errorMessage(run.error)}</span>}
      </span>
      <Button size="sm" variant="secondary" disabled={run.isPending} onClick={() => run.mutate({ scopeId: scope.id })}>
        <Play className="size-4" aria-hidden /> {run.isPending ? "Running…" : "Run consolidator now"}
      </Button>
    </div>
  );
}

/** A file name from a scope name: its words kept, path separators and odd characters dropped. */
function exportFileName(name: string): string {
  const safe = name.replace(/[^\p{L}\p{N}._-]+/gu, "-").replace(/^-+|-+$/g, "") || "scope";
  return `${safe}-${new Date().toISOString().slice(0, 10)}.jsonl`;
}

function ExportButton({ scope }: { scope: ScopeItem }) {
  const client = useTRPCClient();
  const [state, setState] = useState<{ busy: boolean; error: string | null; done: string | null }>({
    busy: false,
    error: null,
    done: null,
  });
  async function download() {
    setState({ busy: true, error: null, done: null });
    try {
      const result = await client.scopes.export.query({ scopeId: scope.id });
      const blob = new Blob([result.jsonl], { type: "application/x-ndjson" });
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = exportFileName(result.name);
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setState({
        busy: false,
        error: null,
        done: `${formatCount(result.lines)} ${result.lines === 1 ? "line" : "lines"}, signed, ${formatBytes(blob.size)}`,
      });
    } catch (e) {
      setState({ busy: false, error: errorMessage(e), done: null });
    }
  }
  return (
    <span className="inline-flex items-center gap-2">
      <span role="status" className="text-xs text-muted" data-testid="export-status">
        {state.done && `Exported ${state.done}`}
        {state.error && <span className="text-danger">Export failed: {state.error}</span>}
      </span>
      <Button
        variant="secondary"
        onClick={download}
        disabled={state.busy}
        title="Download the scope as JSON Lines (memories, facts, threads, proposals; not grants)"
      >
        <Download className="size-4" aria-hidden /> {state.busy ? "Exporting…" : "Export"}
      </Button>
    </span>
  );
}

function DeleteScopeDialog({ scope, onClose }: { scope: ScopeItem; onClose: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.scopes.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.scopes.pathKey() });
        router.push("/memory/scopes");
      },
    }),
  );
  return (
    <ConfirmDialog
      open
      onClose={onClose}
      onConfirm={() => remove.mutate({ scopeId: scope.id })}
      title={`Delete scope “${scope.name}”?`}
      confirmLabel="Delete scope and its memory"
      pendingLabel="Deleting…"
      pending={remove.isPending || remove.isSuccess}
      error={remove.error}
      errorTitle="Not deleted"
    >
      <Callout tone="danger" title="Everything in it goes, for good">
        {formatCount(scope.memories)} current memories and their history, {formatCount(scope.threads)} threads, every
        fact and proposal, and {formatCount(scope.grants)} grants. Agents working in it lose it at once.
      </Callout>
      <p>Export it first if it may be needed again.</p>
    </ConfirmDialog>
  );
}
