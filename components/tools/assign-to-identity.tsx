"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { AssignDialog, AssignPicker, useAssignment } from "@/components/agents/assign-dialog";
import { budgetText } from "@/components/agents/labels";
import { useTRPC } from "@/components/trpc/client";
import { formatBytes } from "@/components/ui/format";

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
  const { preview, assign, fits, save } = useAssignment({ identityId, sourceId: source.id }, async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.identities.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.sources.pathKey() });
    onClose();
  });
  const held = new Set(holding.data?.map((i) => i.id));
  const available = identities.data?.filter((i) => !held.has(i.id)) ?? [];
  const chosen = available.find((i) => i.id === identityId);
  const canSave = fits && Boolean(chosen);

  return (
    <AssignDialog
      title={`Assign ${source.name} to an identity`}
      description="The identity will hold this Source's Compatible Tools. See the effect on its budget before saving."
      loading={identities.isPending || holding.isPending}
      loadingLabel="Loading Agent Identities"
      loadError={identities.isError ? { error: identities.error, retry: () => identities.refetch() } : null}
      nothingToAssign={
        available.length > 0
          ? null
          : identities.data?.length === 0
            ? "There are no Agent Identities yet: create one under Agent Identities first."
            : "Every Agent Identity already holds this Source."
      }
      picker={
        <AssignPicker
          label="Agent Identity"
          placeholder="Choose an identity…"
          value={identityId}
          onChoose={(id) => {
            assign.reset();
            setIdentityId(id);
          }}
        >
          {available.map((i) => (
            <option key={i.id} value={i.id}>
              {i.name} — {budgetText(i.budget)}
            </option>
          ))}
        </AssignPicker>
      }
      chosen={chosen ? {} : null}
      preview={preview}
      budgetLabel={`Projected budget of ${chosen?.name} with ${source.name}`}
      overBudget={(p) => `This would take ${chosen?.name} ${formatBytes(p.projected.overByBytes)} over its budget.`}
      assign={assign}
      canSave={canSave}
      onSubmit={save}
      onClose={onClose}
    />
  );
}
