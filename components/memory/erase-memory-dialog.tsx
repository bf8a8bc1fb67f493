"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Callout } from "@/components/ui/callout";
import { ReasonDialog } from "@/components/ui/reason-dialog";
import { errorMessage } from "@/components/ui/use-error";
import type { MemoryView } from "./types";

/** Erasure, for a legal request: admins only, with a reason the audit log keeps. */
export function EraseMemoryDialog({
  memory,
  open,
  onClose,
}: {
  memory: MemoryView;
  open: boolean;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const erase = useMutation(
    trpc.memories.erase.mutationOptions({
      onSuccess: async () => {
        // Erasing reaches merges built from it, search results and thread indexes.
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.memories.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.threads.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.proposals.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.scopes.pathKey() }),
        ]);
        close();
      },
    }),
  );
  const close = () => {
    erase.reset();
    onClose();
  };
  return (
    <ReasonDialog
      open={open}
      onClose={close}
      title="Erase this memory?"
      description={memory.title}
      before={
        <Callout tone="danger" title="This cannot be undone">
          <ul className="list-disc space-y-1 pl-4">
            <li>The body disappears everywhere: the memory, its search index entries, its facts and its tags.</li>
            <li>
              Memories a merge built from it are erased too; the memories such a merge had replaced become current
              again.
            </li>
            <li>A tombstone stays, saying when, by whom and why. The audit log records you and the reason.</li>
          </ul>
          <p className="mt-2">Use this for a legal request. To correct a memory, supersede it instead.</p>
        </Callout>
      }
      hint="Kept with the tombstone and in the audit log, e.g. the request it answers."
      error={erase.error ? errorMessage(erase.error) : null}
      pending={erase.isPending}
      action="Erase permanently"
      pendingAction="Erasing…"
      variant="danger"
      onSubmit={(reason) => erase.mutate({ id: memory.id, reason })}
    />
  );
}
