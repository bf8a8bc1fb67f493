"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Callout } from "@/components/ui/callout";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Textarea } from "@/components/ui/field";
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
  const [reason, setReason] = useState("");
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
    setReason("");
    onClose();
  };
  const tooShort = reason.trim().length < 3;
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!tooShort) erase.mutate({ id: memory.id, reason: reason.trim() });
  }
  return (
    <Dialog open={open} onClose={close} title="Erase this memory?" description={memory.title}>
      <form onSubmit={submit} className="space-y-4" noValidate>
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
        <Field
          label="Reason"
          hint="Kept with the tombstone and in the audit log, e.g. the request it answers."
          error={erase.error ? errorMessage(erase.error) : null}
        >
          {(p) => (
            <Textarea
              {...p}
              rows={3}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={1000}
              required
              autoFocus
            />
          )}
        </Field>
        <DialogActions onCancel={close} variant="danger" disabled={tooShort || erase.isPending}>
          {erase.isPending ? "Erasing…" : "Erase permanently"}
        </DialogActions>
      </form>
    </Dialog>
  );
}
