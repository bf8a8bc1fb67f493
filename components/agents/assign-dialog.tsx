"use client";

import { type UseQueryResult, useMutation, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { FormEvent, ReactNode } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Select } from "@/components/ui/field";
import { formatBytes } from "@/components/ui/format";
import { ErrorState, LoadingRows, Spinner } from "@/components/ui/states";
import { errorMessage } from "@/components/ui/use-error";
import type { AppRouter } from "@/server/trpc/root";
import { BudgetBar } from "./budget-bar";
import { budgetText, toolCount } from "./labels";

export type AssignmentPreview = inferRouterOutputs<AppRouter>["identities"]["previewAssignment"];

/**
 * One assignment's preview and save, whichever end it is opened from: the preview is the
 * promise made before saving, so it is never a cached one, and a refused save asks for it
 * again (a catalog may have grown meanwhile). `fits` is whether the preview allows saving.
 */
export function useAssignment(pair: { identityId: string; sourceId: string }, onAssigned: () => Promise<unknown>) {
  const trpc = useTRPC();
  const preview = useQuery({
    ...trpc.identities.previewAssignment.queryOptions(pair),
    enabled: Boolean(pair.identityId && pair.sourceId),
    staleTime: 0,
  });
  const assign = useMutation(
    trpc.identities.assignSource.mutationOptions({ onSuccess: onAssigned, onError: () => preview.refetch() }),
  );
  const fits = Boolean(preview.data?.fits && !preview.data.alreadyAssigned) && !assign.isPending;
  return { preview, assign, fits, save: () => assign.mutate(pair) };
}

/** The other side's picker: choosing anew clears the last refusal. */
export function AssignPicker({
  label,
  hint,
  placeholder,
  value,
  onChoose,
  children,
}: {
  label: string;
  hint?: string;
  placeholder: string;
  value: string;
  onChoose: (id: string) => void;
  children: ReactNode;
}) {
  return (
    <Field label={label} hint={hint}>
      {(props) => (
        <Select {...props} value={value} onChange={(e) => onChoose(e.target.value)}>
          <option value="">{placeholder}</option>
          {children}
        </Select>
      )}
    </Field>
  );
}

/**
 * Assigning a Source to an Agent Identity, from either end (an identity's "Assign Source",
 * a Source's "Assign to an identity"): pick the other side, see the effect on the budget
 * before saving, and read the server's refusal as it words it. An assignment that would
 * not fit cannot be saved; the server checks again on save (a catalog may have grown).
 */
export function AssignDialog({
  title,
  description,
  loading,
  loadingLabel,
  loadError,
  nothingToAssign,
  picker,
  chosen,
  preview,
  budgetLabel,
  warning,
  overBudget,
  assign,
  canSave,
  onSubmit,
  onClose,
}: {
  title: string;
  description: string;
  loading: boolean;
  loadingLabel: string;
  loadError: { error: { message: string } | null; retry: () => void } | null;
  /** Why there is nothing to pick, when there is nothing; null when there is. */
  nothingToAssign: string | null;
  picker: ReactNode;
  /** What is said of the choice above its preview, once something is chosen (null before). */
  chosen: { note?: ReactNode } | null;
  preview: UseQueryResult<AssignmentPreview, { message: string }>;
  budgetLabel: string;
  warning?: ReactNode;
  overBudget: (preview: AssignmentPreview) => ReactNode;
  assign: { error: unknown; isPending: boolean };
  canSave: boolean;
  onSubmit: () => void;
  onClose: () => void;
}) {
  const p = preview.data;
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (canSave) onSubmit();
  }
  return (
    <Dialog open onClose={onClose} title={title} description={description}>
      {loading ? (
        <LoadingRows rows={2} label={loadingLabel} />
      ) : loadError ? (
        <ErrorState error={loadError.error} retry={loadError.retry} />
      ) : nothingToAssign !== null ? (
        <div className="space-y-4">
          <p className="text-sm text-muted">{nothingToAssign}</p>
          <div className="flex justify-end">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4" noValidate>
          {picker}
          {chosen && (
            <section aria-label="Effect on the budget" aria-live="polite" className="space-y-3">
              {chosen.note}
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
                    <BudgetBar budget={p.projected} addsBytes={p.addsBytes} legend label={budgetLabel} />
                    {warning}
                    {!p.fits && (
                      <Callout tone="danger" title="Does not fit">
                        {overBudget(p)}
                      </Callout>
                    )}
                  </>
                )
              )}
            </section>
          )}
          {Boolean(assign.error) && (
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
