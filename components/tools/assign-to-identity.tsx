"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { BudgetBar } from "@/components/agents/budget-bar";
import { budgetText, toolCount } from "@/components/agents/labels";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Select } from "@/components/ui/field";
import { formatBytes } from "@/components/ui/format";
import { ErrorState, LoadingRows, Spinner } from "@/components/ui/states";
import { errorMessage } from "@/components/ui/use-error";

/**
 * The other way round from an identity's "Assign Source": from a Source (a new one,
 * typically), pick who should hold it. Same preview before saving, same refusal words.
 */
export function AssignToIdentityDialog({
  source,
  onClose,
}: {
  source: { id: string; name: string };
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [identityId, setIdentityId] = useState("");
  const identities = useQuery(trpc.identities.list.queryOptions({}));
  const holding = useQuery(trpc.identities.list.queryOptions({ sourceId: source.id }));
  const preview = useQuery({
    ...trpc.identities.previewAssignment.queryOptions({ identityId, sourceId: source.id }),
    enabled: Boolean(identityId),
    staleTime: 0,
  });
  const assign = useMutation(
    trpc.identities.assignSource.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.identities.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.sources.pathKey() });
        onClose();
      },
      onError: () => preview.refetch(),
    }),
  );
  const held = new Set(holding.data?.map((i) => i.id));
  const available = identities.data?.filter((i) => !held.has(i.id)) ?? [];
  const chosen = available.find((i) => i.id === identityId);
  const p = preview.data;
  const canSave = Boolean(p?.fits && !p.alreadyAssigned && chosen) && !assign.isPending;

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (canSave) assign.mutate({ identityId, sourceId: source.id });
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Assign ${source.name} to an identity`}
      description="The identity will hold this Source's Compatible Tools. See the effect on its budget before saving."
    >
      {identities.isPending || holding.isPending ? (
        <LoadingRows rows={2} label="Loading Agent Identities" />
      ) : identities.isError ? (
        <ErrorState error={identities.error} retry={() => identities.refetch()} />
      ) : available.length === 0 ? (
        <div className="space-y-4">
          <p className="text-sm text-muted">
            {identities.data.length === 0
              ? "There are no Agent Identities yet: create one under Agent Identities first."
              : "Every Agent Identity already holds this Source."}
          </p>
          <div className="flex justify-end">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4" noValidate>
          <Field label="Agent Identity">
            {(props) => (
              <Select
                {...props}
                value={identityId}
                onChange={(e) => {
                  assign.reset();
                  setIdentityId(e.target.value);
                }}
              >
                <option value="">Choose an identity…</option>
                {available.map((i) => (
                  <option key={i.id} value={i.id}>
                    {i.name} — {budgetText(i.budget)}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          {chosen && (
            <section aria-label="Effect on the budget" aria-live="polite" className="space-y-3">
              {preview.isPending ? (
                <Spinner label="Working out the projected budget…" />
              ) : preview.isError ? (
                <ErrorState error={preview.error} retry={() => preview.refetch()} />
              ) : (
                p && (
                  <>
                    <p className="text-sm" data-testid="assignment-preview">
                      <strong className="tabular-nums">
                        +{toolCount(p.addsTools)}, +{formatBytes(p.addsBytes)}
                      </strong>{" "}
                      → projected usage <strong className="tabular-nums">{budgetText(p.projected)}</strong>
                    </p>
                    <BudgetBar
                      budget={p.projected}
                      addsBytes={p.addsBytes}
                      legend
                      label={`Projected budget of ${chosen.name} with ${source.name}`}
                    />
                    {!p.fits && (
                      <Callout tone="danger" title="Does not fit">
                        This would take {chosen.name} {formatBytes(p.projected.overByBytes)} over its budget.
                      </Callout>
                    )}
                  </>
                )
              )}
            </section>
          )}
          {assign.error && (
            <Callout tone="danger" role="alert" title="Not assigned">
              {errorMessage(assign.error)}
            </Callout>
          )}
          <DialogActions onCancel={onClose} disabled={!canSave}>
            {assign.isPending ? "Assigning…" : "Assign"}
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
