"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import { formatBytes, formatCount } from "@/components/ui/format";
import { errorMessage } from "@/components/ui/use-error";

/** 64 MiB: the server's limit on one import (SCOPE_IMPORT_BYTES), checked here before uploading. */
const MAX_BYTES = 64 * 1024 * 1024;

/** Uploads a scope exported as JSON Lines; importing the same file twice changes nothing. */
export function ImportScopeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [acceptUnsigned, setAcceptUnsigned] = useState(false);
  const importScope = useMutation(
    trpc.scopes.import.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.scopes.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.memories.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.threads.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.proposals.pathKey() }),
        ]),
    }),
  );
  const close = () => {
    importScope.reset();
    setFile(null);
    setReadError(null);
    setAcceptUnsigned(false);
    onClose();
  };
  const tooLarge = file !== null && file.size > MAX_BYTES;
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!file || tooLarge) return;
    setReadError(null);
    let jsonl: string;
    try {
      jsonl = await file.text();
    } catch {
      setReadError("The file could not be read.");
      return;
    }
    importScope.mutate({ jsonl, acceptUnsigned });
  }
  const result = importScope.data;
  const fieldError =
    readError ??
    (tooLarge ? `${formatBytes(file?.size ?? 0)}; an import may be at most ${formatBytes(MAX_BYTES)}.` : null) ??
    (importScope.error ? errorMessage(importScope.error) : null);

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Import a scope"
      description="A .jsonl file from “Export” on a scope's page, from this or another installation."
    >
      {result ? (
        <div className="space-y-4">
          <Callout tone="ok" title={result.createdScope ? "Scope imported" : "Scope updated"} role="status">
            {result.createdScope ? `“${result.name}” was created with ` : `“${result.name}” already existed; added `}
            {formatCount(result.imported.memories)} memories, {formatCount(result.imported.facts)} facts,{" "}
            {formatCount(result.imported.threads)} threads, {formatCount(result.imported.members)} thread memberships
            and {formatCount(result.imported.proposals)} proposals.
            {!result.createdScope &&
              result.imported.memories === 0 &&
              " Nothing was new: importing the same file twice changes nothing."}
          </Callout>
          <p className="text-sm text-muted" data-testid="import-signature">
            {result.signature.signed
              ? `Signed by ${result.signature.signer}; every line matched its signature.`
              : "Unsigned: imported because you accepted an unsigned file."}
          </p>
          <p className="text-sm text-muted">
            Grants are not part of an export: grant Agent Identities access on the scope's page.
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              Close
            </Button>
            <Link
              href={`/memory/scopes/${result.scopeId}`}
              className="inline-flex h-9 items-center rounded-md bg-accent px-3.5 text-sm font-medium text-accent-fg hover:opacity-90"
            >
              Open the scope
            </Link>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4" noValidate>
          <Field
            label="File"
            hint="JSON Lines: the scope first, then its memories, facts, threads and proposals. At most 64 MiB."
            error={fieldError}
          >
            {(p) => (
              <Input
                {...p}
                type="file"
                accept=".jsonl,.ndjson,application/x-ndjson,application/jsonl,text/plain"
                onChange={(e) => {
                  importScope.reset();
                  setFile(e.target.files?.[0] ?? null);
                }}
                className="h-auto py-1.5"
              />
            )}
          </Field>
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              checked={acceptUnsigned}
              onChange={(e) => {
                importScope.reset();
                setAcceptUnsigned(e.target.checked);
              }}
              className="mt-0.5 size-4 accent-[var(--accent)]"
            />
            <span>
              Accept an unsigned file
              <span className="block text-xs text-muted">
                Nothing then shows where it came from or that it is whole: only for a file you trust. A signed file that
                was changed is refused either way.
              </span>
            </span>
          </label>
          <DialogActions onCancel={close} disabled={!file || tooLarge || importScope.isPending}>
            {importScope.isPending ? "Importing…" : "Import"}
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
