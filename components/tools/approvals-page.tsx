"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { ForbiddenState } from "@/components/ui/forbidden";
import { formatDateTime } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { QueryView } from "@/components/ui/query-view";
import { ReasonDialog } from "@/components/ui/reason-dialog";
import { TimeCell } from "@/components/ui/relative-time";
import { EmptyState } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";

/** How often the list is read again: approvers see new parked calls without reloading. */
const LIVE_MS = 3000;

/**
 * Tools → Approvals: calls parked under the approve policy, oldest first, with the identity,
 * the Tool, its Source and the arguments (secret-looking values redacted by the server), and
 * the latest decisions. Approving lets the agent's retry run the call once; denying needs a
 * reason, which the agent is told.
 */
export function ApprovalsPage() {
  const canDecide = useCan("approver");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery({ ...trpc.approvals.list.queryOptions(), enabled: canDecide, refetchInterval: LIVE_MS });
  const [denying, setDenying] = useState<string | null>(null);
  const decide = useMutation(
    trpc.approvals.decide.mutationOptions({
      onSuccess: () => {
        setDenying(null);
        return queryClient.invalidateQueries({ queryKey: trpc.approvals.list.queryKey() });
      },
    }),
  );
  const header = (
    <PageHeader
      title="Approvals"
      description="Calls of Tools under the approve policy wait here. Approve one and the agent's retry runs it once; deny it with a reason the agent is told."
    />
  );
  if (!canDecide)
    return (
      <>
        {header}
        <ForbiddenState needs="approver" what="Deciding calls held for approval" />
      </>
    );
  return (
    <>
      {header}
      {decide.isError && !denying && (
        <Callout tone="danger" role="alert" title="Not decided">
          {decide.error.message}
        </Callout>
      )}
      <QueryView query={list} loadingLabel="Loading approvals">
        {(data) => (
          <div className="space-y-8">
            {data.pending.length === 0 ? (
              <EmptyState title="Nothing waits for approval">
                Calls of Tools under the approve policy appear here as agents make them.
              </EmptyState>
            ) : (
              <Table aria-label="Calls waiting for approval">
                <thead>
                  <tr>
                    <Th>Agent Identity</Th>
                    <Th>Tool</Th>
                    <Th>Arguments</Th>
                    <Th>Waiting since</Th>
                    <Th>
                      <span className="sr-only">Decision</span>
                    </Th>
                  </tr>
                </thead>
                <tbody>
                  {data.pending.map((p) => (
                    <tr key={p.id} data-testid="pending-approval" className="border-t border-border align-top">
                      <Td>{p.identityName}</Td>
                      <Td>
                        <code className="font-mono text-xs">{p.toolName}</code>
                        <div className="text-xs text-muted">{p.sourceName}</div>
                      </Td>
                      <Td>
                        <pre className="max-h-48 max-w-md overflow-auto whitespace-pre-wrap break-all font-mono text-xs">
                          {JSON.stringify(p.arguments, null, 2)}
                        </pre>
                      </Td>
                      <TimeCell at={p.createdAt} />
                      <Td>
                        <div className="flex gap-2">
                          <Button
                            size="sm"
                            disabled={decide.isPending}
                            onClick={() => decide.mutate({ id: p.id, decision: "approve" })}
                          >
                            Approve
                          </Button>
                          <Button
                            size="sm"
                            variant="secondary"
                            disabled={decide.isPending}
                            onClick={() => setDenying(p.id)}
                          >
                            Deny
                          </Button>
                        </div>
                      </Td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
            {data.decided.length > 0 && (
              <Table aria-label="Latest decisions">
                <thead>
                  <tr>
                    <Th>Agent Identity</Th>
                    <Th>Tool</Th>
                    <Th>Decision</Th>
                    <Th>By</Th>
                    <Th>Reason</Th>
                  </tr>
                </thead>
                <tbody>
                  {data.decided.map((d) => (
                    <tr key={d.id} data-testid="decided-approval" className="border-t border-border align-top">
                      <Td>{d.identityName}</Td>
                      <Td>
                        <code className="font-mono text-xs">{d.toolName}</code>
                      </Td>
                      <Td>
                        {d.status === "ran"
                          ? "approved, ran"
                          : d.status === "approved"
                            ? "approved, awaiting retry"
                            : "denied"}
                      </Td>
                      <Td title={formatDateTime(d.decidedAt)}>{d.decidedByLabel}</Td>
                      <Td>{d.reason ?? "—"}</Td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
          </div>
        )}
      </QueryView>
      <ReasonDialog
        open={denying !== null}
        onClose={() => setDenying(null)}
        title="Deny this call"
        description="Nothing runs; the agent's retry is told it was denied, and why."
        hint="The agent reads it, e.g. “refunds over €500 need finance”."
        error={decide.isError ? decide.error.message : null}
        errorTitle="Not denied"
        pending={decide.isPending}
        action="Deny"
        pendingAction="Denying…"
        variant="danger"
        onSubmit={(reason) => denying && decide.mutate({ id: denying, decision: "deny", reason })}
      />
    </>
  );
}
