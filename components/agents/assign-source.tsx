"use client";

import { useQuery } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { formatBytes, formatCount } from "@/components/ui/format";
import { AssignDialog, AssignPicker, useAssignment } from "./assign-dialog";
import { SOURCE_KIND_LABELS, toolCount } from "./labels";
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
  const { preview, assign, fits, save } = useAssignment({ identityId: identity.id, sourceId }, async () => {
    await invalidate();
    onClose();
  });

  const assigned = new Set(identity.sources.map((s) => s.sourceId));
  const available = sources.data?.filter((s) => !assigned.has(s.id)) ?? [];
  const chosen = available.find((s) => s.id === sourceId);
  const full = (s: (typeof available)[number]) =>
    s.identities.limit !== null && s.identities.assigned >= s.identities.limit;
  const canSave = fits && Boolean(chosen && !full(chosen));

  return (
    <AssignDialog
      title={`Assign a Source to ${identity.name}`}
      description="It will hold the Source's Compatible Tools. See the effect on its budget before saving."
      loading={sources.isPending}
      loadingLabel="Loading Sources"
      loadError={sources.isError ? { error: sources.error, retry: () => sources.refetch() } : null}
      nothingToAssign={
        available.length > 0
          ? null
          : sources.data?.length === 0
            ? "There are no Sources yet. Add an MCP Connection or an SDK Tool Host under Tools → Sources first."
            : "Every Source is already assigned to this identity."
      }
      picker={
        <AssignPicker
          label="Source"
          hint="Size is the model-facing definitions of its Compatible Tools."
          placeholder="Choose a Source…"
          value={sourceId}
          onChoose={(id) => {
            assign.reset();
            setSourceId(id);
          }}
        >
          {available.map((s) => (
            <option key={s.id} value={s.id} disabled={full(s)}>
              {s.name} — {toolCount(s.compatibleToolCount)}, {formatBytes(s.modelFacingBytes)}
              {s.catalogState === "host_silent" ? " (host silent)" : ""}
              {full(s) ? ` (already serves ${formatCount(s.identities.assigned)} identities, its limit)` : ""}
            </option>
          ))}
        </AssignPicker>
      }
      chosen={
        chosen
          ? {
              note: (
                <p className="text-xs text-muted">
                  {SOURCE_KIND_LABELS[chosen.kind] ?? chosen.kind}
                  {chosen.identities.assigned > 0 &&
                    ` · assigned to ${formatCount(chosen.identities.assigned)} other ${chosen.identities.assigned === 1 ? "identity" : "identities"}`}
                </p>
              ),
            }
          : null
      }
      preview={preview}
      budgetLabel={`Projected budget of ${identity.name} with ${chosen?.name}`}
      warning={
        chosen?.catalogState === "host_silent" && (
          <Callout tone="warn" title="Its SDK Tool Host is silent">
            Assigning adds nothing now. Its Tools count against the budget once the host sends heartbeats again, which
            may push this identity over.
          </Callout>
        )
      }
      overBudget={(p) => (
        <>
          This would take {identity.name} {formatBytes(p.projected.overByBytes)} over its{" "}
          {formatBytes(p.projected.limitBytes)} budget. Unassign another Source or shorten its instructions first, or
          choose a smaller Source.
        </>
      )}
      assign={assign}
      canSave={canSave}
      onSubmit={save}
      onClose={onClose}
    />
  );
}
