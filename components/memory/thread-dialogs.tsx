"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "@/components/tools/form-errors";
import { useTRPC } from "@/components/trpc/client";
import { Callout } from "@/components/ui/callout";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Input, Textarea } from "@/components/ui/field";
import { formatCount } from "@/components/ui/format";
import { errorMessage } from "@/components/ui/use-error";
import type { ScopeItem, ThreadView } from "./types";

function useInvalidateThreads() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.threads.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.scopes.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.memories.get.pathKey() }),
    ]);
}

export function CreateThreadDialog({ scope, open, onClose }: { scope: ScopeItem; open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const invalidate = useInvalidateThreads();
  const create = useMutation(
    trpc.threads.create.mutationOptions({
      onSuccess: async (thread) => {
        await invalidate();
        router.push(`/memory/threads/${thread.id}`);
      },
    }),
  );
  const errors = fieldErrors(create.error, ["name", "description"]);
  const close = () => {
    create.reset();
    onClose();
  };
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    create.mutate({
      scopeId: scope.id,
      name: String(f.get("name") ?? ""),
      description: String(f.get("description") ?? ""),
    });
  }
  return (
    <Dialog open={open} onClose={close} title="New thread" description={`In scope “${scope.name}”.`}>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Name" hint="Unique in the scope, e.g. “INC-2107 checkout outage”." error={errors.of("name")}>
          {(p) => <Input {...p} name="name" required maxLength={100} autoComplete="off" autoFocus />}
        </Field>
        <Field label="Description (optional)" error={errors.of("description")}>
          {(p) => <Textarea {...p} name="description" rows={2} maxLength={2000} />}
        </Field>
        {errors.unplaced && (
          <Callout tone="danger" role="alert" title="Not created">
            {errorMessage(errors.unplaced)}
          </Callout>
        )}
        <DialogActions onCancel={close} disabled={create.isPending || create.isSuccess}>
          {create.isPending ? "Creating…" : create.isSuccess ? "Opening…" : "Create thread"}
        </DialogActions>
      </form>
    </Dialog>
  );
}

export function RenameThreadDialog({
  thread,
  open,
  onClose,
}: {
  thread: ThreadView;
  open: boolean;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const invalidate = useInvalidateThreads();
  const [name, setName] = useState(thread.name);
  const rename = useMutation(
    trpc.threads.rename.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        close();
      },
    }),
  );
  const close = () => {
    rename.reset();
    onClose();
  };
  function submit(e: FormEvent) {
    e.preventDefault();
    if (name.trim() === thread.name) return close();
    rename.mutate({ threadId: thread.id, name });
  }
  return (
    <Dialog open={open} onClose={close} title="Rename thread">
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field
          label="Name"
          hint="Agents read threads by name (qm://thread/{name}); they find it under the new one."
          error={rename.error ? errorMessage(rename.error) : null}
        >
          {(p) => (
            <Input
              {...p}
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={100}
              autoComplete="off"
              autoFocus
            />
          )}
        </Field>
        <DialogActions onCancel={close} disabled={rename.isPending || !name.trim()}>
          {rename.isPending ? "Renaming…" : "Rename"}
        </DialogActions>
      </form>
    </Dialog>
  );
}

export function DeleteThreadDialog({
  thread,
  open,
  onClose,
}: {
  thread: ThreadView;
  open: boolean;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const invalidate = useInvalidateThreads();
  const remove = useMutation(
    trpc.threads.delete.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        router.push(`/memory/threads?scope=${encodeURIComponent(thread.scopeId)}`);
      },
    }),
  );
  return (
    <ConfirmDialog
      open={open}
      onClose={() => {
        remove.reset();
        onClose();
      }}
      onConfirm={() => remove.mutate({ threadId: thread.id })}
      title={`Delete “${thread.name}”?`}
      confirmLabel="Delete thread"
      pendingLabel="Deleting…"
      pending={remove.isPending || remove.isSuccess}
      error={remove.error}
      errorTitle="Not deleted"
    >
      <p>
        The thread, its order and its pins go. Its {formatCount(thread.memberCount)}{" "}
        {thread.memberCount === 1 ? "member is" : "members are"} <strong>kept</strong>: memories live in the scope, not
        in threads, and stay in every other thread they belong to.
      </p>
      <p className="text-muted">To keep the thread for reference but out of the way, archive it instead.</p>
    </ConfirmDialog>
  );
}
