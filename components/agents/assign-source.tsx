"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Select } from "@/components/ui/field";
import { formatBytes, formatCount } from "@/components/ui/format";
import { ErrorState, LoadingRows, Spinner } from "@/components/ui/states";
import { errorMessage } from "@/components/ui/use-error";
import { BudgetBar } from "./budget-bar";
import { budgetText, SOURCE_KIND_LABELS, toolCount } from "./labels";
import type { IdentityView } from "./types";
import { useInvalidateIdentities } from "./use-invalidate-identity";

export function AssignSourceButton({ identity }: { identity: IdentityView }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)}>
        <Plus className="size-4" aria-hidden /> Assign Source
      </Button>
      {open && <AssignSourceDialog identity={identity} onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * Picking a Source shows what it would do to the budget before anything is saved; an
 * assignment that would not fit cannot be saved. The server checks again on save
 * (a catalog may have grown meanwhile) and its refusal is shown as it words it.
 */
function AssignSourceDialog({ identity, onClose }: { identity: IdentityView; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateIdentities();
  const [sourceId, setSourceId] = useState("");
  const sources = useQuery(trpc.sources.list.queryOptions());
  const preview = useQuery({
    ...trpc.identities.previewAssignment.queryOptions({ identityId: identity.id, sourceId }),
    enabled: Boolean(sourceId),
    // The preview is the promise made before saving; never show a cached one.
    staleTime: 0,
  });
  const assign = useMutation(
    trpc.identities.assignSource.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        onClose();
      },
      onError: () => preview.refetch(),
    }),
  );

  const assigned = new Set(identity.sources.map((s) => s.sourceId));
  const available = sources.data?.filter((s) => !assigned.has(s.id)) ?? [];
  const chosen = available.find((s) => s.id === sourceId);
  const full = (s: (typeof available)[number]) =>
    s.identities.limit !== null && s.identities.assigned >= s.identities.limit;
  const p = preview.data;
  const canSave = Boolean(p?.fits && !p.alreadyAssigned && chosen && !full(chosen)) && !assign.isPending;

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (canSave) assign.mutate({ identityId: identity.id, sourceId });
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Assign a Source to ${identity.name}`}
      description="It will hold the Source's Compatible Tools. See the effect on its budget before saving."
    >
      {sources.isPending ? (
        <LoadingRows rows={2} label="Loading Sources" />
      ) : sources.isError ? (
        <ErrorState error={sources.error} retry={() => sources.refetch()} />
      ) : available.length === 0 ? (
        <div className="space-y-4">
          <p className="text-sm text-muted">
            {sources.data.length === 0
              ? "There are no Sources yet. Add an MCP Connection or an SDK Tool Host under Tools → Sources first."
              : "Every Source is already assigned to this identity."}
          </p>
          <div className="flex justify-end">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4" noValidate>
          <Field label="Source" hint="Size is the model-facing definitions of its Compatible Tools.">
            {(props) => (
              <Select
                {...props}
                value={sourceId}
                onChange={(e) => {
                  assign.reset();
                  setSourceId(e.target.value);
                }}
              >
                <option value="">Choose a Source…</option>
                {available.map((s) => (
                  <option key={s.id} value={s.id} disabled={full(s)}>
                    {s.name} — {toolCount(s.compatibleToolCount)}, {formatBytes(s.modelFacingBytes)}
                    {s.catalogState === "host_silent" ? " (host silent)" : ""}
                    {full(s) ? ` (already serves ${formatCount(s.identities.assigned)} identities, its limit)` : ""}
                  </option>
                ))}
              </Select>
            )}
          </Field>

          {chosen && (
            <section aria-label="Effect on the budget" aria-live="polite" className="space-y-3">
              <p className="text-xs text-muted">
                {SOURCE_KIND_LABELS[chosen.kind] ?? chosen.kind}
                {chosen.identities.assigned > 0 &&
                  ` · assigned to ${formatCount(chosen.identities.assigned)} other ${chosen.identities.assigned === 1 ? "identity" : "identities"}`}
              </p>
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
                      label={`Projected budget of ${identity.name} with ${chosen.name}`}
                    />
                    {chosen.catalogState === "host_silent" && (
                      <Callout tone="warn" title="Its SDK Tool Host is silent">
                        Assigning adds nothing now. Its Tools count against the budget once the host sends heartbeats
                        again, which may push this identity over.
                      </Callout>
                    )}
                    {!p.fits && (
                      <Callout tone="danger" title="Does not fit">
                        This would take {identity.name} {formatBytes(p.projected.overByBytes)} over its{" "}
                        {formatBytes(p.projected.limitBytes)} budget. Unassign another Source or shorten its
                        instructions first, or choose a smaller Source.
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
