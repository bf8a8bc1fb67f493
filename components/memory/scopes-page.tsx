"use client";

import { useQuery } from "@tanstack/react-query";
import { FolderTree, Plus, Upload } from "lucide-react";
import Link from "next/link";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatCount } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";
import { useUrlState } from "@/components/ui/use-url-state";
import { ImportScopeDialog } from "./import-scope-dialog";
import { ScopeFormDialog } from "./scope-form-dialog";
import { SigningKeysCard } from "./signing-keys-card";

export function ScopesPage() {
  const trpc = useTRPC();
  const canWrite = useCan("curator");
  const scopes = useQuery(trpc.scopes.list.queryOptions());
  // ?new=1 and ?import=1 open the dialogs, so the empty states elsewhere can link to them.
  const [params, setParams] = useUrlState(["new", "import"] as const);
  const creating = canWrite && params.new === "1";
  const importing = canWrite && params.import === "1";

  const actions = canWrite && (
    <>
      <Button variant="secondary" onClick={() => setParams({ import: "1" })}>
        <Upload className="size-4" aria-hidden /> Import…
      </Button>
      <Button onClick={() => setParams({ new: "1" })}>
        <Plus className="size-4" aria-hidden /> New scope
      </Button>
    </>
  );

  return (
    <>
      <PageHeader
        title="Scopes"
        description="Exclusive partitions of memory: every memory, thread, fact and proposal belongs to one scope, and nothing crosses between them. Agent Identities reach a scope only through a grant."
        actions={actions}
      />
      <QueryView
        query={scopes}
        loadingLabel="Loading scopes"
        empty={
          <EmptyState title="No scopes yet" icon={<FolderTree className="size-8" />} action={actions}>
            Create one per team or project, or import a scope exported from another installation.
            {!canWrite && " Creating one needs the curator role."}
          </EmptyState>
        }
      >
        {(data) => (
          <Table aria-label="Scopes">
            <thead>
              <tr>
                <Th>Name</Th>
                <Th className="text-right">Memories</Th>
                <Th className="text-right">Threads</Th>
                <Th className="text-right">Pending proposals</Th>
                <Th className="text-right">Agent grants</Th>
                <Th>Your access</Th>
              </tr>
            </thead>
            <tbody>
              {data.map((s) => {
                const q = `?scope=${encodeURIComponent(s.id)}`;
                return (
                  <tr key={s.id} data-testid="scope-row">
                    <Td className="max-w-md">
                      <Link href={`/memory/scopes/${s.id}`} className="font-medium text-accent hover:underline">
                        {s.name}
                      </Link>
                      {s.description && <p className="truncate text-xs text-muted">{s.description}</p>}
                    </Td>
                    <Td className="text-right tabular-nums">
                      <Link href={`/memory/memories${q}`} className="hover:underline">
                        {formatCount(s.memories)}
                      </Link>
                    </Td>
                    <Td className="text-right tabular-nums">
                      <Link href={`/memory/threads${q}`} className="hover:underline">
                        {formatCount(s.threads)}
                      </Link>
                    </Td>
                    <Td className="text-right tabular-nums">
                      <Link href={`/memory/proposals${q}`} className="hover:underline">
                        {formatCount(s.pendingProposals)}
                      </Link>
                    </Td>
                    <Td className="text-right tabular-nums">{formatCount(s.grants)}</Td>
                    <Td>{s.access === "write" ? <Badge tone="accent">Read and write</Badge> : <Badge>Read</Badge>}</Td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
        )}
      </QueryView>
      <SigningKeysCard />
      {creating && <ScopeFormDialog open onClose={() => setParams({ new: null })} />}
      {importing && <ImportScopeDialog open onClose={() => setParams({ import: null })} />}
    </>
  );
}
