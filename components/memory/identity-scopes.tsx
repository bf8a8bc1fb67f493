"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Card, CardHeader } from "@/components/ui/card";
import { QueryView } from "@/components/ui/query-view";
import { GrantsTable } from "./grants-table";

/** An Agent Identity's memory scopes (its grants), on its page. */
export function IdentityScopes({ identityId }: { identityId: string }) {
  const trpc = useTRPC();
  const grants = useQuery(trpc.scopes.identityGrants.queryOptions({ identityId }));
  const scopes = useQuery(trpc.scopes.list.queryOptions());
  return (
    <Card data-testid="identity-scopes">
      <CardHeader
        title="Memory scopes"
        description="The scopes this identity's agents may read (search, read by id) or also write (remember, decide proposals). Without a grant a scope is invisible to them."
      />
      <div className="p-4">
        <QueryView query={grants} loadingLabel="Loading memory scopes" loadingRows={2}>
          {(data) => (
            <GrantsTable
              what="Scope"
              rows={data.map((g) => ({
                scopeId: g.scopeId,
                identityId,
                label: g.scopeName,
                href: `/memory/scopes/${g.scopeId}`,
                access: g.access,
                grantedAt: g.grantedAt,
              }))}
              candidates={(scopes.data ?? [])
                .filter((s) => !data.some((g) => g.scopeId === s.id))
                .map((s) => ({ value: s.id, label: s.name }))}
              onGrantTarget={(scopeId) => ({ scopeId, identityId })}
              emptyText="No memory scopes: this identity's agents see no memory at all."
            />
          )}
        </QueryView>
      </div>
    </Card>
  );
}
