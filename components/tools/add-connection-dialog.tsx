"use client";

import { useMutation } from "@tanstack/react-query";
import { CheckCircle2, Loader2, OctagonAlert, PlugZap } from "lucide-react";
import { type FormEvent, useRef, useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { formatCount } from "@/components/ui/format";
import { errorMessage } from "@/components/ui/use-error";
import {
  type ConnectionField,
  type ConnectionValues,
  connectionProblems,
  serverProblems,
} from "./connection-validation";
import { fieldErrors } from "./form-errors";
import { DurationOptions, UnplacedError } from "./form-parts";
import { type HeaderRow, HeadersEditor, headersFromRows } from "./headers-editor";
import { CHECK_INTERVAL_OPTIONS, DEFAULT_CHECK_INTERVAL, failureHint } from "./labels";
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
  const form = useRef<HTMLFormElement>(null);
  const [rows, setRows] = useState<HeaderRow[]>([]);
  const [problems, setProblems] = useState<Partial<Record<ConnectionField, string>>>({});
  const create = useMutation(
    trpc.sources.createMcpConnection.mutationOptions({
      onSuccess: (source) => {
        close();
        onCreated(source);
      },
      onError: (error) => setProblems(serverProblems(error)),
    }),
  );
  const test = useMutation(trpc.sources.testConnection.mutationOptions());
  const [typedName, setTypedName] = useState("");
  const server = fieldErrors(create.error, FIELDS);
  const errorOf = (field: ConnectionField) =>
    problems[field] ??
    server.of(field) ??
    // The test's word on the name holds only for the name it was given.
    (field === "name" && test.variables?.name === typedName ? (test.data?.nameTaken ?? null) : null);

  function close() {
    create.reset();
    test.reset();
    setTypedName("");
    setRows([]);
    setProblems({});
    onClose();
  }

  /** The form's values, or null with every problem shown at once. */
  function read(only?: ConnectionField[]): ConnectionValues | null {
    const f = new FormData(form.current ?? undefined);
    const { headers, error: headersError } = headersFromRows(rows);
    const values: ConnectionValues = {
      name: String(f.get("name") ?? ""),
      url: String(f.get("url") ?? "").trim(),
      description: String(f.get("description") ?? "") || undefined,
      headers: Object.keys(headers).length ? headers : undefined,
      checkIntervalSeconds: Number(f.get("checkIntervalSeconds") ?? DEFAULT_CHECK_INTERVAL),
      reviewPolicy: f.get("reviewPolicy") === "trust" ? "trust" : "review",
    };
    const found = connectionProblems(values);
    if (headersError) found.headers = headersError;
    const shown = only
      ? Object.fromEntries(Object.entries(found).filter(([k]) => only.includes(k as ConnectionField)))
      : found;
    setProblems(shown);
    return Object.keys(shown).length ? null : values;
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const values = read();
    if (values) create.mutate(values);
  }

  function runTest() {
    // A test needs only where and how to connect; the name can wait.
    const values = read(["url", "headers"]);
    // With a name typed, the test also says whether it is free, before anything is saved.
    if (values) test.mutate({ url: values.url, headers: values.headers, name: values.name.trim() || undefined });
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Add MCP Connection"
      description="A remote MCP server reached over Streamable HTTP. Quartermaster lists its Tools on a schedule and on demand."
    >
      <form ref={form} onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Name" hint="Up to 100 characters, unique across Sources." error={errorOf("name")}>
          {(p) => (
            <Input
              {...p}
              name="name"
              required
              maxLength={100}
              autoComplete="off"
              onChange={(e) => setTypedName(e.target.value.trim())}
            />
          )}
        </Field>
        <Field label="URL" hint="The server’s Streamable HTTP endpoint." error={errorOf("url")}>
          {(p) => (
            <Input
              {...p}
              name="url"
              type="url"
              required
              placeholder="https://mcp.example.com/mcp"
              autoComplete="off"
              spellCheck={false}
              onChange={() => test.reset()}
            />
          )}
        </Field>
        <Field label="Description" hint="Optional: what it offers, who owns it." error={errorOf("description")}>
          {(p) => <Textarea {...p} name="description" rows={2} maxLength={1000} />}
        </Field>
        <HeadersEditor
          legend="Auth headers"
          hint="Optional. Values are encrypted at rest and never shown again; only header names are."
          rows={rows}
          onChange={(next) => {
            test.reset();
            setRows(next);
          }}
          error={errorOf("headers")}
        />
        <Field label="Check interval" error={errorOf("checkIntervalSeconds")}>
          {(p) => (
            <Select {...p} name="checkIntervalSeconds" defaultValue={DEFAULT_CHECK_INTERVAL}>
              <DurationOptions options={CHECK_INTERVAL_OPTIONS} />
            </Select>
          )}
        </Field>
        <Field
          label="Tool definitions"
          hint="Its first catalog counts as approved by you; under review, later new and changed Tools wait in Tools → Review."
        >
          {(p) => (
            <Select {...p} name="reviewPolicy" defaultValue="review">
              <option value="review">Review new and changed Tools</option>
              <option value="trust">Trust what the server publishes</option>
            </Select>
          )}
        </Field>
        <div className="space-y-2">
          <Button type="button" variant="secondary" onClick={runTest} disabled={test.isPending}>
            {test.isPending ? (
              <Loader2 className="size-4 animate-spin" aria-hidden />
            ) : (
              <PlugZap className="size-4" aria-hidden />
            )}
            Test connection
          </Button>
          <TestOutcome state={test} />
        </div>
        {!Object.keys(problems).length && (
          <UnplacedError error={server.unplaced} title="The Connection was not added" />
        )}
        <DialogActions onCancel={close} disabled={create.isPending}>
          {create.isPending ? "Adding…" : "Add MCP Connection"}
        </DialogActions>
      </form>
    </Dialog>
  );
}

type TestState = {
  isPending: boolean;
  error: unknown;
  data?:
    | {
        ok: true;
        ms: number;
        firstPageTools: number;
        morePages: boolean;
        tools: { name: string; title: string | null; compatible: boolean }[];
      }
    | { ok: false; ms: number; failure: { code: string; message: string; details: Record<string, unknown> } };
};

/** What the test found, in a polite live region: the first page's Tools, or the failure and a hint. */
function TestOutcome({ state }: { state: TestState }) {
  const { data, error, isPending } = state;
  return (
    <div aria-live="polite" data-testid="test-connection">
      {isPending ? (
        <p className="text-sm text-muted">Listing the server’s first page of Tools…</p>
      ) : error ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {errorMessage(error)}
        </p>
      ) : data?.ok ? (
        <div className="rounded-md border border-ok/40 bg-ok-soft px-3 py-2 text-sm">
          <p className="flex items-center gap-1.5 font-semibold text-ok">
            <CheckCircle2 className="size-4" aria-hidden /> Connected in {formatCount(data.ms)} ms
          </p>
          <p>
            The first page lists {formatCount(data.firstPageTools)} {data.firstPageTools === 1 ? "Tool" : "Tools"}
            {data.morePages ? "; the server has more pages, which the first check reads." : "."}
          </p>
          {data.tools.length > 0 && (
            <p className="mt-1 text-xs text-muted [overflow-wrap:anywhere]">
              {data.tools.map((t) => (t.compatible ? t.name : `${t.name} (not offerable)`)).join(", ")}
              {data.firstPageTools > data.tools.length ? "…" : ""}
            </p>
          )}
          <p className="mt-1 text-xs text-muted">Nothing was saved.</p>
        </div>
      ) : data ? (
        <div className="rounded-md border border-danger/40 bg-danger-soft px-3 py-2 text-sm">
          <p className="flex items-center gap-1.5 font-semibold text-danger">
            <OctagonAlert className="size-4" aria-hidden /> Could not list Tools:{" "}
            <code className="font-mono text-xs">{data.failure.code}</code>
          </p>
          <p className="[overflow-wrap:anywhere]">{data.failure.message}</p>
          {failureHint(data.failure.code, data.failure.details) && (
            <p className="mt-1">
              <strong>What to try:</strong> {failureHint(data.failure.code, data.failure.details)}
            </p>
          )}
        </div>
      ) : null}
    </div>
  );
}
