"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Callout } from "@/components/ui/callout";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Input, Textarea } from "@/components/ui/field";
import { formatBytes } from "@/components/ui/format";
import { parseError } from "@/components/ui/parse-error";
import { errorMessage } from "@/components/ui/use-error";
import { utf8Bytes } from "@/universal/format";

const FIELDS = ["name", "description", "instructions"];

export function CreateIdentityDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [instructions, setInstructions] = useState("");
  const create = useMutation(
    trpc.identities.create.mutationOptions({
      onSuccess: async (identity) => {
        await queryClient.invalidateQueries({ queryKey: trpc.identities.list.queryKey() });
        // A new identity holds nothing yet; its page is where Sources get assigned.
        router.push(`/agents/${identity.id}?tab=sources`);
      },
    }),
  );
  const close = () => {
    create.reset();
    setInstructions("");
    onClose();
  };
  // A budget refusal names no field but is about the instructions, so it goes under them.
  const parsed = parseError(create.error);
  const field = parsed?.code === "BUDGET_EXCEEDED" ? "instructions" : (parsed?.field ?? null);
  const errorOf = (name: string) => (field === name ? errorMessage(create.error) : null);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    create.mutate({
      name: String(f.get("name") ?? ""),
      description: String(f.get("description") ?? "") || undefined,
      instructions: instructions || undefined,
    });
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title="New Agent Identity"
      description="What an agent connects to /mcp as. Assign Sources to it next; it holds their Compatible Tools."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Name" hint="Unique, e.g. “support-triage”." error={errorOf("name")}>
          {(p) => <Input {...p} name="name" required maxLength={100} autoComplete="off" />}
        </Field>
        <Field label="Description (optional)" hint="For people: what the agent is for." error={errorOf("description")}>
          {(p) => <Input {...p} name="description" maxLength={1000} />}
        </Field>
        <Field
          label="Instructions (optional)"
          hint={
            <>
              Markdown sent to the identity's agents as written.{" "}
              <span className="tabular-nums">{formatBytes(utf8Bytes(instructions))}</span> — counts against the 4 MiB
              budget with the Tools.
            </>
          }
          error={errorOf("instructions")}
        >
          {(p) => (
            <Textarea
              {...p}
              name="instructions"
              rows={6}
              className="font-mono text-xs"
              value={instructions}
              onChange={(e) => setInstructions(e.target.value)}
            />
          )}
        </Field>
        {create.error && !FIELDS.includes(field ?? "") && (
          <Callout tone="danger" role="alert" title="Not created">
            {errorMessage(create.error)}
          </Callout>
        )}
        <DialogActions onCancel={close} disabled={create.isPending || create.isSuccess}>
          {create.isPending ? "Creating…" : create.isSuccess ? "Opening…" : "Create identity"}
        </DialogActions>
      </form>
    </Dialog>
  );
}
