"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { useCurrentUser } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Select } from "@/components/ui/field";
import { TimeCell } from "@/components/ui/relative-time";
import { Table, Td, Th } from "@/components/ui/table";
import { errorMessage } from "@/components/ui/use-error";
import { roleAllows } from "@/universal/roles";

export type Access = "read" | "write";

export const ACCESS_LABELS: Record<Access, string> = { read: "Read", write: "Read and write" };

/** Grants are identity administration as much as curation: curators, operators and admins change them. */
export function useCanGrant(): boolean {
  const { role } = useCurrentUser();
  return roleAllows(role, "curator") || roleAllows(role, "operator");
}

/** After a grant changes, both sides' lists and the scopes' grant counts move. */
export function useInvalidateGrants() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.scopes.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.identities.pathKey() }),
    ]);
}

export interface GrantRow {
  scopeId: string;
  identityId: string;
  /** What the row names: the identity on a scope's page, the scope on an identity's. */
  label: string;
  href: string;
  access: Access;
  grantedAt: Date;
}

/**
 * Grants as a table, from either side (a scope's identities or an identity's scopes), with
 * access changed in place, revoke, and a form to grant one more.
 */
export function GrantsTable({
  rows,
  what,
  candidates,
  onGrantTarget,
  emptyText,
}: {
  rows: GrantRow[];
  /** "Agent Identity" or "Scope": the column and the form's label. */
  what: string;
  /** What can still be granted: value is the other side's id. */
  candidates: { value: string; label: string }[];
  /** Turns a chosen candidate into the grant's ids. */
  onGrantTarget: (value: string) => { scopeId: string; identityId: string };
  emptyText: string;
}) {
  const trpc = useTRPC();
  const canGrant = useCanGrant();
  const invalidate = useInvalidateGrants();
  const grant = useMutation(trpc.scopes.grant.mutationOptions({ onSuccess: invalidate }));
  const revoke = useMutation(trpc.scopes.revoke.mutationOptions({ onSuccess: invalidate }));
  const [target, setTarget] = useState("");
  const [access, setAccess] = useState<Access>("read");
  const chosen = target || candidates[0]?.value || "";
  const failure = grant.error ?? revoke.error;

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!chosen) return;
    grant.mutate({ ...onGrantTarget(chosen), access }, { onSuccess: () => setTarget("") });
  }

  return (
    <div className="space-y-4">
      {rows.length === 0 ? (
        <p className="text-sm text-muted">{emptyText}</p>
      ) : (
        <Table aria-label={`${what} grants`}>
          <thead>
            <tr>
              <Th>{what}</Th>
              <Th>Access</Th>
              <Th>Granted</Th>
              {canGrant && (
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              )}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.scopeId}:${r.identityId}`} data-testid="grant-row">
                <Td>
                  <Link href={r.href} className="font-medium text-accent hover:underline">
                    {r.label}
                  </Link>
                </Td>
                <Td>
                  {canGrant ? (
                    <>
                      <label className="sr-only" htmlFor={`access-${r.scopeId}-${r.identityId}`}>
                        Access of {r.label}
                      </label>
                      <Select
                        id={`access-${r.scopeId}-${r.identityId}`}
                        value={r.access}
                        disabled={grant.isPending}
                        onChange={(e) =>
                          grant.mutate({
                            scopeId: r.scopeId,
                            identityId: r.identityId,
                            access: e.target.value as Access,
                          })
                        }
                        className="w-44"
                      >
                        <option value="read">{ACCESS_LABELS.read}</option>
                        <option value="write">{ACCESS_LABELS.write}</option>
                      </Select>
                    </>
                  ) : (
                    <Badge tone={r.access === "write" ? "accent" : "neutral"}>{ACCESS_LABELS[r.access]}</Badge>
                  )}
                </Td>
                <TimeCell at={r.grantedAt} />
                {canGrant && (
                  <Td className="text-right">
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={revoke.isPending}
                      aria-label={`Revoke the grant of ${r.label}`}
                      onClick={() => revoke.mutate({ scopeId: r.scopeId, identityId: r.identityId })}
                    >
                      Revoke
                    </Button>
                  </Td>
                )}
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {failure && (
        <Callout tone="danger" role="alert" title="Not changed">
          {errorMessage(failure)}
        </Callout>
      )}
      {canGrant &&
        (candidates.length === 0 ? (
          <p className="text-xs text-muted">Every {what === "Scope" ? "scope" : what} already holds a grant here.</p>
        ) : (
          <form
            onSubmit={submit}
            className="flex flex-wrap items-end gap-2"
            aria-label={`Grant a ${what.toLowerCase()}`}
          >
            <div className="space-y-1">
              <label htmlFor={`grant-${what}`} className="block text-xs font-medium text-muted">
                Grant {what === "Scope" ? "a scope" : "an Agent Identity"}
              </label>
              <Select id={`grant-${what}`} value={chosen} onChange={(e) => setTarget(e.target.value)} className="w-64">
                {candidates.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </Select>
            </div>
            <div className="space-y-1">
              <label htmlFor={`grant-access-${what}`} className="block text-xs font-medium text-muted">
                Access
              </label>
              <Select
                id={`grant-access-${what}`}
                value={access}
                onChange={(e) => setAccess(e.target.value as Access)}
                className="w-44"
              >
                <option value="read">{ACCESS_LABELS.read}</option>
                <option value="write">{ACCESS_LABELS.write}</option>
              </Select>
            </div>
            <Button type="submit" disabled={grant.isPending}>
              {grant.isPending ? "Granting…" : "Grant"}
            </Button>
          </form>
        ))}
      {!canGrant && <p className="text-xs text-muted">Granting needs the curator or operator role.</p>}
    </div>
  );
}
