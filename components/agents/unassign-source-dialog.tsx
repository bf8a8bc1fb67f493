"use client";

import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { formatBytes } from "@/components/ui/format";
import { toolCount } from "./labels";
import { useInvalidateIdentities } from "./use-invalidate-identity";

export interface UnassignTarget {
  sourceId: string;
  name: string;
  tools: number;
  bytes: number;
}

export function UnassignSourceDialog({
  identity,
  source,
  onClose,
}: {
  identity: { id: string; name: string };
  source: UnassignTarget | null;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const invalidate = useInvalidateIdentities();
  const unassign = useMutation(
    trpc.identities.unassignSource.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        close();
      },
    }),
  );
  function close() {
    unassign.reset();
    onClose();
  }
  return (
    <ConfirmDialog
      open={Boolean(source)}
      onClose={close}
      title={source ? `Unassign ${source.name}?` : "Unassign Source"}
      confirmLabel="Unassign"
      pendingLabel="Unassigning…"
      pending={unassign.isPending}
      error={unassign.error}
      errorTitle="Not unassigned"
      onConfirm={() => source && unassign.mutate({ identityId: identity.id, sourceId: source.sourceId })}
    >
      {source && (
        <>
          <p>
            <strong>{identity.name}</strong> stops holding its {toolCount(source.tools)} ({formatBytes(source.bytes)})
            at once: agents no longer see them on their next request.
          </p>
          <p className="text-muted">The Source itself is not changed. The loss is listed under Lost recently.</p>
        </>
      )}
    </ConfirmDialog>
  );
}
