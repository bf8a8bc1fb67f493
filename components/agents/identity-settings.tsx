"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, Input, Textarea } from "@/components/ui/field";
import { formatBytes } from "@/components/ui/format";
import { parseError } from "@/components/ui/parse-error";
import { errorMessage } from "@/components/ui/use-error";
import { fmtBytes, utf8Bytes } from "@/universal/format";
import { BudgetBar } from "./budget-bar";
import type { IdentityView } from "./types";

const FIELDS = ["name", "description", "instructions"];

export function IdentitySettings({ identity }: { identity: IdentityView }) {
  const canWrite = useCan("operator");
  return (
    <div className="space-y-6">
      <EditIdentity identity={identity} readOnly={!canWrite} />
      {canWrite && <DeleteIdentity identity={identity} />}
    </div>
  );
}

function EditIdentity({ identity, readOnly }: { identity: IdentityView; readOnly: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState(identity.name);
  const [description, setDescription] = useState(identity.description);
  const [instructions, setInstructions] = useState(identity.instructions);
  const update = useMutation(
    trpc.identities.update.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.identities.pathKey() }),
    }),
  );

  const changes = {
    name: name.trim() !== identity.name ? name : undefined,
    description: description.trim() !== identity.description ? description : undefined,
    instructions: instructions !== identity.instructions ? instructions : undefined,
  };
  const dirty = Object.values(changes).some((v) => v !== undefined);

  // What the budget would be with these instructions, so a refusal is never a surprise.
  const bytes = utf8Bytes(instructions);
  const { toolsBytes, limitBytes } = identity.budget;
  const used = toolsBytes + bytes;
  const projected = {
    usedBytes: used,
    limitBytes,
    toolsBytes,
    instructionsBytes: bytes,
    freeBytes: Math.max(0, limitBytes - used),
    overByBytes: Math.max(0, used - limitBytes),
  };
  const refusedLikely = projected.overByBytes > 0 && bytes > identity.budget.instructionsBytes;

  // A budget refusal names no field but is about the instructions.
  const parsed = parseError(update.error);
  const field = parsed?.code === "BUDGET_EXCEEDED" ? "instructions" : (parsed?.field ?? null);
  const errorOf = (f: string) => (field === f ? errorMessage(update.error) : null);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (dirty) update.mutate({ id: identity.id, ...changes });
  }

  return (
    <Card>
      <CardHeader
        title="Name, description and instructions"
        description={readOnly ? "Changing an identity needs the operator role." : undefined}
      />
      <form onSubmit={submit} className="space-y-4 p-4" noValidate>
        <Field label="Name" error={errorOf("name")}>
          {(p) => (
            <Input
              {...p}
              name="name"
              value={name}
              readOnly={readOnly}
              maxLength={100}
              required
              autoComplete="off"
              onChange={(e) => setName(e.target.value)}
              className="max-w-md read-only:bg-surface-2"
            />
          )}
        </Field>
        <Field label="Description" hint="For people: what the agent is for." error={errorOf("description")}>
          {(p) => (
            <Textarea
              {...p}
              name="description"
              rows={2}
              value={description}
              readOnly={readOnly}
              maxLength={1000}
              onChange={(e) => setDescription(e.target.value)}
              className="read-only:bg-surface-2"
            />
          )}
        </Field>
        <Field
          label="Instructions"
          hint={
            <>
              Markdown sent to the identity's agents as written, after Quartermaster's fixed tool policy.{" "}
              <span className="tabular-nums" data-testid="instructions-bytes">
                {fmtBytes(bytes)}
              </span>{" "}
              counted against the budget, with {formatBytes(toolsBytes)} of Tool definitions.
            </>
          }
          error={errorOf("instructions")}
        >
          {(p) => (
            <Textarea
              {...p}
              name="instructions"
              rows={14}
              value={instructions}
              readOnly={readOnly}
              onChange={(e) => setInstructions(e.target.value)}
              className="font-mono text-xs leading-relaxed read-only:bg-surface-2"
            />
          )}
        </Field>
        {!readOnly && instructions !== identity.instructions && (
          <BudgetBar budget={projected} label="Budget with these instructions" />
        )}
        {!readOnly && refusedLikely && !update.error && (
          <Callout tone="warn" title="These instructions do not fit">
            With them the identity would be {formatBytes(projected.overByBytes)} over its {formatBytes(limitBytes)}{" "}
            budget, so saving will be refused. Shorten them, or unassign a Source first.
          </Callout>
        )}
        {update.error && !FIELDS.includes(field ?? "") && (
          <Callout tone="danger" role="alert" title="Not saved">
            {errorMessage(update.error)}
          </Callout>
        )}
        {!readOnly && (
          <div className="flex items-center justify-end gap-3">
            <span role="status" className="text-sm text-ok">
              {update.isSuccess && !dirty ? "Saved." : ""}
            </span>
            <Button
              variant="secondary"
              disabled={!dirty || update.isPending}
              onClick={() => {
                update.reset();
                setName(identity.name);
                setDescription(identity.description);
                setInstructions(identity.instructions);
              }}
            >
              Discard changes
            </Button>
            <Button type="submit" disabled={!dirty || update.isPending}>
              {update.isPending ? "Saving…" : "Save"}
            </Button>
          </div>
        )}
      </form>
    </Card>
  );
}

function DeleteIdentity({ identity }: { identity: IdentityView }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation(
    trpc.identities.delete.mutationOptions({
      onSuccess: async () => {
        // Only the list: refetching this identity now would flash "not found" before the redirect.
        await queryClient.invalidateQueries({ queryKey: trpc.identities.list.queryKey() });
        router.push("/agents");
      },
    }),
  );
  return (
    <Card className="border-danger/40">
      <CardHeader
        title="Delete identity"
        description="Its tokens stop working at once and its agents are refused. Its Sources and their Tools are not affected."
        actions={
          <Button variant="danger" size="sm" onClick={() => setConfirming(true)}>
            <Trash2 className="size-4" aria-hidden /> Delete identity
          </Button>
        }
      />
      <ConfirmDialog
        open={confirming}
        onClose={() => {
          remove.reset();
          setConfirming(false);
        }}
        title={`Delete ${identity.name}?`}
        confirmLabel="Delete identity"
        pendingLabel="Deleting…"
        pending={remove.isPending || remove.isSuccess}
        error={remove.error}
        errorTitle="Not deleted"
        onConfirm={() => remove.mutate({ id: identity.id })}
      >
        <p>
          Every agent token of <strong>{identity.name}</strong> is revoked with it, so its agents are refused on their
          next request. Its Source assignments and history go too. This cannot be undone.
        </p>
      </ConfirmDialog>
    </Card>
  );
}
