"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { fieldErrors } from "./form-errors";
import { DurationOptions, UnplacedError } from "./form-parts";
import { HostTokenInstructions } from "./host-token-instructions";
import { DEFAULT_HEARTBEAT_TIMEOUT, HEARTBEAT_TIMEOUT_OPTIONS } from "./labels";

const FIELDS = ["name", "description", "heartbeatTimeoutSeconds"] as const;

export function AddToolHostDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: () => void;
}) {
  const trpc = useTRPC();
  const create = useMutation(trpc.sources.createToolHost.mutationOptions({ onSuccess: onCreated }));
  const [timeout, setTimeoutSeconds] = useState(DEFAULT_HEARTBEAT_TIMEOUT);
  const errors = fieldErrors(create.error, FIELDS);

  function close() {
    create.reset();
    setTimeoutSeconds(DEFAULT_HEARTBEAT_TIMEOUT);
    onClose();
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    create.mutate({
      name: String(f.get("name")),
      description: String(f.get("description") ?? "") || undefined,
      heartbeatTimeoutSeconds: timeout,
    });
  }

  const created = create.data;
  return (
    <Dialog
      open={open}
      onClose={close}
      title={created ? "SDK Tool Host added" : "Add SDK Tool Host"}
      description={
        created
          ? `“${created.source.name}” publishes Tools once its process registers with this token.`
          : "A process that registers its Tools over Quartermaster’s HTTP API and sends heartbeats."
      }
    >
      {created ? (
        <div className="space-y-4">
          <HostTokenInstructions
            token={created.hostToken}
            heartbeatTimeoutSeconds={created.source.heartbeatTimeoutSeconds ?? timeout}
          />
          <div className="flex justify-end gap-2">
            <Link
              href={`/tools/sources/${created.source.id}`}
              className="inline-flex h-9 items-center rounded-md border border-border bg-surface px-3.5 text-sm font-medium hover:bg-surface-2"
            >
              Open the host
            </Link>
            <Button onClick={close}>Done</Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4" noValidate>
          <Field label="Name" hint="Up to 100 characters, unique across Sources." error={errors.of("name")}>
            {(p) => <Input {...p} name="name" required maxLength={100} autoComplete="off" />}
          </Field>
          <Field label="Description" hint="Optional: what it offers, who runs it." error={errors.of("description")}>
            {(p) => <Textarea {...p} name="description" rows={2} maxLength={1000} />}
          </Field>
          <Field
            label="Heartbeat timeout"
            hint="A host silent for longer has its Tools withdrawn until it sends a heartbeat again."
            error={errors.of("heartbeatTimeoutSeconds")}
          >
            {(p) => (
              <Select {...p} value={timeout} onChange={(e) => setTimeoutSeconds(Number(e.target.value))}>
                <DurationOptions options={HEARTBEAT_TIMEOUT_OPTIONS} />
              </Select>
            )}
          </Field>
          <UnplacedError error={errors.unplaced} title="The host was not added" />
          <DialogActions onCancel={close} disabled={create.isPending}>
            {create.isPending ? "Adding…" : "Add SDK Tool Host"}
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
