"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "@/components/tools/form-errors";
import { useTRPC } from "@/components/trpc/client";
import { Callout } from "@/components/ui/callout";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { errorMessage } from "@/components/ui/use-error";
import type { ScopeItem } from "./types";

const INTERVALS = [
  { seconds: 3600, label: "Every hour" },
  { seconds: 6 * 3600, label: "Every 6 hours" },
  { seconds: 12 * 3600, label: "Every 12 hours" },
  { seconds: 86_400, label: "Every day" },
  { seconds: 7 * 86_400, label: "Every week" },
];

export function intervalLabel(seconds: number): string {
  const preset = INTERVALS.find((i) => i.seconds === seconds);
  if (preset) return preset.label;
  if (seconds % 86_400 === 0) return `Every ${seconds / 86_400} days`;
  if (seconds % 3600 === 0) return `Every ${seconds / 3600} hours`;
  return `Every ${Math.round(seconds / 60)} minutes`;
}

const FIELDS = ["name", "description", "consolidateEverySeconds"];

/** Creates a scope, or edits one (`scope` given): name, description, consolidation interval. */
export function ScopeFormDialog({ scope, open, onClose }: { scope?: ScopeItem; open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [interval, setEvery] = useState(scope?.consolidateEverySeconds ?? 3600);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.scopes.pathKey() });
  const create = useMutation(
    trpc.scopes.create.mutationOptions({
      onSuccess: async (created) => {
        await invalidate();
        router.push(`/memory/scopes/${created.id}`);
      },
    }),
  );
  const update = useMutation(
    trpc.scopes.update.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        onClose();
      },
    }),
  );
  const mutation = scope ? update : create;
  const errors = fieldErrors(mutation.error, FIELDS);
  const options = INTERVALS.some((i) => i.seconds === interval)
    ? INTERVALS
    : [...INTERVALS, { seconds: interval, label: intervalLabel(interval) }];

  const close = () => {
    mutation.reset();
    onClose();
  };
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const name = String(f.get("name") ?? "");
    const description = String(f.get("description") ?? "");
    if (scope)
      update.mutate({
        scopeId: scope.id,
        ...(name.trim() !== scope.name ? { name } : {}),
        ...(description.trim() !== scope.description ? { description } : {}),
        ...(interval !== scope.consolidateEverySeconds ? { consolidateEverySeconds: interval } : {}),
      });
    else create.mutate({ name, description, consolidateEverySeconds: interval });
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title={scope ? `Edit “${scope.name}”` : "New scope"}
      description={
        scope
          ? "Agents name scopes on their calls: renaming one changes the name they must use."
          : "An exclusive partition of memory, e.g. one per team or project."
      }
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Name" hint="Letters, digits, spaces and . _ / -; unique." error={errors.of("name")}>
          {(p) => (
            <Input
              {...p}
              name="name"
              defaultValue={scope?.name}
              required
              maxLength={100}
              autoComplete="off"
              autoFocus
            />
          )}
        </Field>
        <Field
          label="Description (optional)"
          hint="For people and agents: what belongs here."
          error={errors.of("description")}
        >
          {(p) => <Textarea {...p} name="description" rows={3} maxLength={2000} defaultValue={scope?.description} />}
        </Field>
        <Field
          label="Consolidator runs"
          hint="How often the consolidator looks for duplicates and outdated facts in this scope. It only files proposals; nothing changes until a curator accepts one."
          error={errors.of("consolidateEverySeconds")}
        >
          {(p) => (
            <Select {...p} value={interval} onChange={(e) => setEvery(Number(e.target.value))}>
              {options.map((o) => (
                <option key={o.seconds} value={o.seconds}>
                  {o.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        {errors.unplaced && (
          <Callout tone="danger" role="alert" title={scope ? "Not saved" : "Not created"}>
            {errorMessage(errors.unplaced)}
          </Callout>
        )}
        <DialogActions onCancel={close} disabled={mutation.isPending || create.isSuccess}>
          {scope
            ? update.isPending
              ? "Saving…"
              : "Save"
            : create.isPending
              ? "Creating…"
              : create.isSuccess
                ? "Opening…"
                : "Create scope"}
        </DialogActions>
      </form>
    </Dialog>
  );
}
