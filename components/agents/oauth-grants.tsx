"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link2 } from "lucide-react";
import { useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { formatDateTime, formatRelative } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";
import { useNow } from "@/components/ui/use-now";

/** Clients that signed in with OAuth as this identity (docs/mcp.md), each revocable. */
export function OAuthGrants({ identity }: { identity: { id: string; name: string } }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canWrite = useCan("operator");
  const now = useNow();
  const grants = useQuery(trpc.identities.oauthGrants.queryOptions({ id: identity.id }));
  const [revoking, setRevoking] = useState<{ id: string; clientName: string } | null>(null);
  const revoke = useMutation(
    trpc.identities.revokeOAuthGrant.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.identities.oauthGrants.queryKey({ id: identity.id }) });
        setRevoking(null);
      },
    }),
  );

  return (
    <Card>
      <CardHeader
        title="Signed-in clients (OAuth)"
        description="MCP clients given only the /mcp address sign in with OAuth; an operator approved each one to act as this identity."
      />
      <div className="p-4">
        <QueryView
          query={grants}
          loadingLabel="Loading signed-in clients"
          loadingRows={2}
          empty={
            <EmptyState title="No signed-in clients" icon={<Link2 className="size-8" />}>
              No client has signed in with OAuth as {identity.name}.
            </EmptyState>
          }
        >
          {(data) => (
            <Table aria-label="Signed-in clients">
              <thead>
                <tr>
                  <Th>Client</Th>
                  <Th>Approved by</Th>
                  <Th>Approved</Th>
                  <Th>Last token issued</Th>
                  <Th>Last used</Th>
                  <Th>
                    <span className="sr-only">Actions</span>
                  </Th>
                </tr>
              </thead>
              <tbody>
                {data.map((g) => (
                  <tr key={g.id} data-testid="oauth-grant-row">
                    <Td className="font-medium">{g.clientName}</Td>
                    <Td>{g.approvedBy ?? "—"}</Td>
                    <Td
                      className="whitespace-nowrap text-muted"
                      title={g.approvedAt ? formatDateTime(g.approvedAt) : undefined}
                    >
                      {formatRelative(g.approvedAt, now)}
                    </Td>
                    <Td
                      className="whitespace-nowrap text-muted"
                      title={g.lastTokenAt ? formatDateTime(g.lastTokenAt) : undefined}
                    >
                      {formatRelative(g.lastTokenAt, now)}
                    </Td>
                    <Td
                      className="whitespace-nowrap text-muted"
                      title={g.lastUsedAt ? formatDateTime(g.lastUsedAt) : undefined}
                      data-testid="oauth-grant-last-used"
                    >
                      {formatRelative(g.lastUsedAt, now)}
                    </Td>
                    <Td className="whitespace-nowrap text-right">
                      {canWrite && (
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-label={`Revoke ${g.clientName}`}
                          onClick={() => setRevoking(g)}
                        >
                          Revoke
                        </Button>
                      )}
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </QueryView>
      </div>
      <ConfirmDialog
        open={Boolean(revoking)}
        onClose={() => {
          revoke.reset();
          setRevoking(null);
        }}
        title={revoking ? `Revoke “${revoking.clientName}”?` : "Revoke client"}
        confirmLabel="Revoke"
        pendingLabel="Revoking…"
        pending={revoke.isPending}
        error={revoke.error}
        errorTitle="Not revoked"
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
      >
        <p>Its tokens are refused on the next request; the client must sign in and be approved again.</p>
      </ConfirmDialog>
    </Card>
  );
}
