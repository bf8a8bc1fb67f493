"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";

/**
 * Whether MCP clients may register themselves with the authorization server (RFC 7591):
 * how desktop clients connect by URL alone. An admin may close it; clients registered
 * already keep working, and each still needs an operator's approval for an identity.
 */
export function ClientRegistrationCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isAdmin = useCan("admin");
  const state = useQuery(trpc.identities.clientRegistration.queryOptions());
  const set = useMutation(
    trpc.identities.setClientRegistration.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.identities.clientRegistration.queryKey() }),
    }),
  );
  if (!state.data) return null;
  const { enabled, perMinute } = state.data;
  return (
    <Card className="mt-6" data-testid="client-registration">
      <CardHeader
        title="OAuth client registration"
        description={
          enabled
            ? `On: an MCP client connecting by URL registers itself (at most ${perMinute} a minute from one address); an operator still approves it for an Agent Identity.`
            : "Off: new clients cannot register themselves; clients registered already keep working, and agents can always use a pasted token."
        }
        actions={
          isAdmin && (
            <Button variant="secondary" disabled={set.isPending} onClick={() => set.mutate({ enabled: !enabled })}>
              {enabled ? "Turn off" : "Turn on"}
            </Button>
          )
        }
      />
      {set.isError && (
        <p role="alert" className="px-4 pb-4 text-sm text-danger">
          {set.error.message}
        </p>
      )}
    </Card>
  );
}
