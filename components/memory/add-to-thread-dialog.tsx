"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";
import { errorMessage } from "@/components/ui/use-error";
import type { MemoryView } from "./types";

const NEW = "__new__";

/** Adds the memory to a thread of its scope (an existing one, or a new one named here). */
export function AddToThreadDialog({
  memory,
  open,
  onClose,
  onAdded,
}: {
  memory: MemoryView;
  open: boolean;
  onClose: () => void;
  onAdded: () => void;
}) {
  const trpc = useTRPC();
  const threads = useQuery({
    ...trpc.threads.list.queryOptions({ scopeId: memory.scopeId, archived: "active", limit: 500 }),
    enabled: open,
  });
  const [choice, setChoice] = useState("");
  const [name, setName] = useState("");
  const create = useMutation(trpc.threads.create.mutationOptions());
  const add = useMutation(trpc.threads.addMembers.mutationOptions());
  const options = threads.data?.items.filter((t) => !memory.threads.some((m) => m.id === t.id)) ?? [];
  const selected = choice || options[0]?.id || NEW;
  const error = create.error ?? add.error;
  const pending = create.isPending || add.isPending;

  const close = () => {
    create.reset();
    add.reset();
    setChoice("");
    setName("");
    onClose();
  };
  async function submit(e: FormEvent) {
    e.preventDefault();
    try {
      const threadId =
        selected === NEW
          ? (await create.mutateAsync({ scopeId: memory.scopeId, name: name.trim(), description: "" })).id
          : selected;
      await add.mutateAsync({ threadId, memoryIds: [memory.id] });
      setChoice("");
      setName("");
      onAdded();
    } catch {
      // Shown below from the mutation's error.
    }
  }
  return (
    <Dialog open={open} onClose={close} title="Add to a thread" description={`Scope “${memory.scopeName}”`}>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Thread" error={selected !== NEW && error ? errorMessage(error) : null}>
          {(p) => (
            <Select {...p} value={selected} onChange={(e) => setChoice(e.target.value)}>
              {options.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
              <option value={NEW}>A new thread…</option>
            </Select>
          )}
        </Field>
        {selected === NEW && (
          <Field label="New thread's name" error={error ? errorMessage(error) : null}>
            {(p) => (
              <Input {...p} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} autoComplete="off" />
            )}
          </Field>
        )}
        <DialogActions onCancel={close} disabled={pending || (selected === NEW && !name.trim())}>
          {pending ? "Adding…" : "Add"}
        </DialogActions>
      </form>
    </Dialog>
  );
}
