"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link2 } from "lucide-react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { RevokeDialog, useRevoke } from "@/components/ui/credentials";
import { MOMENT, momentColumn, RelativeTime } from "@/components/ui/relative-time";
import { ACTIONS_HEADER, QueryTable } from "@/components/ui/rows-table";
import { EmptyState } from "@/components/ui/states";
import { useNow } from "@/components/ui/use-now";
import type { OAuthGrant } from "./types";

/** Clients that signed in with OAuth as this identity (docs/mcp.md), each revocable. */
export function OAuthGrants({ identity }: { identity: { id: string; name: string } }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canWrite = useCan("operator");
  const now = useNow();
  const grants = useQuery(trpc.identities.oauthGrants.queryOptions({ id: identity.id }));
  const revoking = useRevoke(
    useMutation(
      trpc.identities.revokeOAuthGrant.mutationOptions({
        onSuccess: () =>
          queryClient.invalidateQueries({ queryKey: trpc.identities.oauthGrants.queryKey({ id: identity.id }) }),
      }),
    ),
  );

  return (
    <Card>
      <CardHeader
        title="Signed-in clients (OAuth)"
        description="MCP clients given only the /mcp address sign in with OAuth; an operator approved each one to act as this identity."
      />
      <div className="p-4">
        <QueryTable
          query={grants}
          loadingLabel="Loading signed-in clients"
          loadingRows={2}
          empty={
            <EmptyState title="No signed-in clients" icon={<Link2 className="size-8" />}>
              No client has signed in with OAuth as {identity.name}.
            </EmptyState>
          }
          label="Signed-in clients"
          rowTestId="oauth-grant-row"
          columns={[
            { key: "client", header: "Client", className: "font-medium", cell: (g) => g.clientName },
            { key: "by", header: "Approved by", cell: (g) => g.approvedBy ?? "—" },
            momentColumn<OAuthGrant>("approved", "Approved", (r) => r.approvedAt, now),
            momentColumn<OAuthGrant>("token", "Last token issued", (r) => r.lastTokenAt, now),
            {
              key: "used",
              header: "Last used",
              className: MOMENT,
              cell: (g) => (
                <span data-testid="oauth-grant-last-used">
                  <RelativeTime at={g.lastUsedAt} now={now} />
                </span>
              ),
            },
            canWrite && {
              key: "actions",
              header: ACTIONS_HEADER,
              className: "whitespace-nowrap text-right",
              cell: (g) => (
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Revoke ${g.clientName}`}
                  onClick={() => revoking.ask({ id: g.id, name: g.clientName })}
                >
                  Revoke
                </Button>
              ),
            },
          ]}
        />
      </div>
      <RevokeDialog {...revoking.dialog} what="client">
        Its tokens are refused on the next request; the client must sign in and be approved again.
      </RevokeDialog>
    </Card>
  );
}
