"use client";

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { fieldErrors } from "./form-errors";
import { DurationOptions, UnplacedError } from "./form-parts";
import { type HeaderRow, HeadersEditor, headersFromRows } from "./headers-editor";
import { CHECK_INTERVAL_OPTIONS, DEFAULT_CHECK_INTERVAL } from "./labels";
import type { SourceView } from "./types";

const FIELDS = ["name", "url", "description", "headers", "checkIntervalSeconds"] as const;

export function AddConnectionDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (source: SourceView) => void;
}) {
  const trpc = useTRPC();
  const [rows, setRows] = useState<HeaderRow[]>([]);
  const [rowsError, setRowsError] = useState<string | null>(null);
  const create = useMutation(
    trpc.sources.createMcpConnection.mutationOptions({
      onSuccess: (source) => {
        close();
        onCreated(source);
      },
    }),
  );
  const errors = fieldErrors(create.error, FIELDS);

  function close() {
    create.reset();
    setRows([]);
    setRowsError(null);
    onClose();
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const { headers, error } = headersFromRows(rows);
    setRowsError(error);
    if (error) return;
    create.mutate({
      name: String(f.get("name")),
      url: String(f.get("url")),
      description: String(f.get("description") ?? "") || undefined,
      headers: Object.keys(headers).length ? headers : undefined,
      checkIntervalSeconds: Number(f.get("checkIntervalSeconds")),
    });
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Add MCP Connection"
      description="A remote MCP server reached over Streamable HTTP. Quartermaster lists its Tools on a schedule and on demand."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Name" hint="Up to 100 characters, unique across Sources." error={errors.of("name")}>
          {(p) => <Input {...p} name="name" required maxLength={100} autoComplete="off" />}
        </Field>
        <Field label="URL" hint="The server’s Streamable HTTP endpoint." error={errors.of("url")}>
          {(p) => (
            <Input
              {...p}
              name="url"
              type="url"
              required
              placeholder="https://mcp.example.com/mcp"
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </Field>
        <Field label="Description" hint="Optional: what it offers, who owns it." error={errors.of("description")}>
          {(p) => <Textarea {...p} name="description" rows={2} maxLength={1000} />}
        </Field>
        <HeadersEditor
          legend="Auth headers"
          hint="Optional. Values are encrypted at rest and never shown again; only header names are."
          rows={rows}
          onChange={setRows}
          error={rowsError ?? errors.of("headers")}
        />
        <Field label="Check interval" error={errors.of("checkIntervalSeconds")}>
          {(p) => (
            <Select {...p} name="checkIntervalSeconds" defaultValue={DEFAULT_CHECK_INTERVAL}>
              <DurationOptions options={CHECK_INTERVAL_OPTIONS} />
            </Select>
          )}
        </Field>
        <UnplacedError error={errors.unplaced} title="The Connection was not added" />
        <DialogActions onCancel={close} disabled={create.isPending}>
          {create.isPending ? "Adding…" : "Add MCP Connection"}
        </DialogActions>
      </form>
    </Dialog>
  );
}
