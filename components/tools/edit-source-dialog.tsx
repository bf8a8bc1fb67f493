"use client";

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Callout } from "@/components/ui/callout";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { fieldErrors } from "./form-errors";
import { DurationOptions, UnplacedError } from "./form-parts";
import { type HeaderRow, HeadersEditor, headersFromRows } from "./headers-editor";
import { CHECK_INTERVAL_OPTIONS, formatSeconds, HEARTBEAT_TIMEOUT_OPTIONS } from "./labels";
import type { SourceView } from "./types";

const FIELDS = ["name", "description", "url", "headers", "checkIntervalSeconds", "heartbeatTimeoutSeconds"] as const;

/** The origin of a URL as typed, or null while it is not a URL yet. */
function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Options including the current value, so a value set over the API is never silently changed. */
function withCurrent(options: ReadonlyArray<{ seconds: number; label: string }>, current: number | null) {
  if (current === null || options.some((o) => o.seconds === current)) return options;
  return [...options, { seconds: current, label: `${formatSeconds(current)} (current)` }].sort(
    (a, b) => a.seconds - b.seconds,
  );
}

export function EditSourceDialog({
  source,
  open,
  onClose,
  onSaved,
}: {
  source: SourceView;
  open: boolean;
  onClose: () => void;
  onSaved: (source: SourceView) => void;
}) {
  const trpc = useTRPC();
  const isConnection = source.kind === "mcp_connection";
  const [replaceHeaders, setReplaceHeaders] = useState(false);
  const [keepHeaders, setKeepHeaders] = useState(false);
  const [url, setUrl] = useState(source.url ?? "");
  const newOrigin = originOf(url.trim());
  // Saved headers are credentials for one server: they follow a new origin only if asked to.
  const headersAtNewOrigin =
    isConnection &&
    source.headerNames.length > 0 &&
    !replaceHeaders &&
    newOrigin !== null &&
    newOrigin !== originOf(source.url ?? "");
  const [rows, setRows] = useState<HeaderRow[]>([]);
  const [rowsError, setRowsError] = useState<string | null>(null);
  const update = useMutation(
    trpc.sources.update.mutationOptions({
      onSuccess: (saved) => {
        onSaved(saved);
        close();
      },
    }),
  );
  const errors = fieldErrors(update.error, FIELDS);

  function close() {
    update.reset();
    setReplaceHeaders(false);
    setKeepHeaders(false);
    setUrl(source.url ?? "");
    setRows([]);
    setRowsError(null);
    onClose();
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    let headers: Record<string, string> | undefined;
    if (replaceHeaders) {
      const parsed = headersFromRows(rows);
      setRowsError(parsed.error);
      if (parsed.error) return;
      headers = parsed.headers;
    }
    const newUrl = isConnection ? url.trim() : undefined;
    const interval = isConnection ? Number(f.get("checkIntervalSeconds")) : undefined;
    const timeout = isConnection ? undefined : Number(f.get("heartbeatTimeoutSeconds"));
    update.mutate({
      id: source.id,
      name: String(f.get("name")),
      description: String(f.get("description") ?? ""),
      // Unchanged values are left out: a new URL or interval triggers an immediate check.
      url: newUrl !== undefined && newUrl !== source.url ? newUrl : undefined,
      checkIntervalSeconds: interval !== source.checkIntervalSeconds ? interval : undefined,
      heartbeatTimeoutSeconds: timeout !== source.heartbeatTimeoutSeconds ? timeout : undefined,
      headers,
      keepHeaders: headersAtNewOrigin && keepHeaders ? true : undefined,
    });
  }

  return (
    <Dialog open={open} onClose={close} title={`Edit ${source.name}`}>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Name" hint="Up to 100 characters, unique across Sources." error={errors.of("name")}>
          {(p) => <Input {...p} name="name" required maxLength={100} defaultValue={source.name} autoComplete="off" />}
        </Field>
        <Field label="Description" error={errors.of("description")}>
          {(p) => <Textarea {...p} name="description" rows={2} maxLength={1000} defaultValue={source.description} />}
        </Field>
        {isConnection ? (
          <>
            <Field label="URL" hint="Changing it starts a check right away." error={errors.of("url")}>
              {(p) => (
                <Input
                  {...p}
                  name="url"
                  type="url"
                  required
                  value={url}
                  onChange={(e) => setUrl(e.target.value)}
                  autoComplete="off"
                  spellCheck={false}
                />
              )}
            </Field>
            <Field label="Check interval" error={errors.of("checkIntervalSeconds")}>
              {(p) => (
                <Select {...p} name="checkIntervalSeconds" defaultValue={source.checkIntervalSeconds ?? 3600}>
                  <DurationOptions options={withCurrent(CHECK_INTERVAL_OPTIONS, source.checkIntervalSeconds)} />
                </Select>
              )}
            </Field>
            {headersAtNewOrigin && (
              <Callout tone="warn" title="The auth headers stay with the old server" data-testid="headers-new-origin">
                <p>
                  The new URL is on {newOrigin}. The saved headers ({source.headerNames.join(", ")}) are not sent there
                  unless you replace them below or keep them for it.
                </p>
                <label className="mt-2 flex items-start gap-2">
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4 accent-[var(--accent)]"
                    checked={keepHeaders}
                    onChange={(e) => setKeepHeaders(e.target.checked)}
                  />
                  <span>Send the saved headers to {newOrigin}</span>
                </label>
                {errors.of("headers") && <p className="mt-1 text-danger">{errors.of("headers")}</p>}
              </Callout>
            )}
            <div className="space-y-2 rounded-md border border-border p-3">
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 accent-[var(--accent)]"
                  checked={replaceHeaders}
                  onChange={(e) => setReplaceHeaders(e.target.checked)}
                />
                <span>
                  <span className="font-medium">Replace auth headers</span>
                  <span className="block text-xs text-muted">
                    {source.headerNames.length
                      ? `Current: ${source.headerNames.join(", ")}. Values are never shown; leave this off to keep them.`
                      : "No headers are set now."}
                  </span>
                </span>
              </label>
              {replaceHeaders && (
                <HeadersEditor
                  legend="New auth headers"
                  hint={
                    rows.length === 0
                      ? "With no rows, saving removes every header."
                      : "These replace all current headers."
                  }
                  rows={rows}
                  onChange={setRows}
                  error={rowsError ?? errors.of("headers")}
                />
              )}
            </div>
          </>
        ) : (
          <Field
            label="Heartbeat timeout"
            hint="A host silent for longer has its Tools withdrawn."
            error={errors.of("heartbeatTimeoutSeconds")}
          >
            {(p) => (
              <Select {...p} name="heartbeatTimeoutSeconds" defaultValue={source.heartbeatTimeoutSeconds ?? 120}>
                <DurationOptions options={withCurrent(HEARTBEAT_TIMEOUT_OPTIONS, source.heartbeatTimeoutSeconds)} />
              </Select>
            )}
          </Field>
        )}
        <UnplacedError error={errors.unplaced} title="Not saved" />
        <DialogActions onCancel={close} disabled={update.isPending}>
          {update.isPending ? "Saving…" : "Save"}
        </DialogActions>
      </form>
    </Dialog>
  );
}
