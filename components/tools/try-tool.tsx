"use client";

import { useMutation } from "@tanstack/react-query";
import { Play } from "lucide-react";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { formatCount } from "@/components/ui/format";
import { JsonBlock } from "@/components/ui/json-block";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { errorMessage } from "@/components/ui/use-error";
import { ResultBlocks } from "./result-blocks";
import { argumentsFrom, argumentsFromJson, type FormField, formFields } from "./schema-form";
import type { ToolDetailView } from "./types";

type Mode = "form" | "json";

/**
 * Try a Tool (operators): a form from its input schema, called as one of the identities
 * that hold it, through the same path /mcp uses. Shows the result blocks and the JSON-RPC
 * exchange; a Tool that says it is destructive asks first, and so does one under the
 * `confirm` call policy — here the operator is the person its agents' users would be, so
 * the call is confirmed in this dialog, not in a client.
 */
export function TryTool({ tool }: { tool: ToolDetailView }) {
  const trpc = useTRPC();
  const fields = formFields(tool.inputSchema);
  const [mode, setMode] = useState<Mode>(fields ? "form" : "json");
  const [values, setValues] = useState<Record<string, string>>({});
  const [json, setJson] = useState("{}");
  const [problems, setProblems] = useState<Record<string, string>>({});
  const holders = tool.heldBy.items;
  const [identityId, setIdentityId] = useState(holders[0]?.id ?? "");
  const [confirming, setConfirming] = useState<Record<string, unknown> | null>(null);
  const call = useMutation(trpc.catalog.tryTool.mutationOptions({ onSettled: () => setConfirming(null) }));
  const destructive = (tool.annotations as { destructiveHint?: unknown } | null)?.destructiveHint === true;
  const policy = tool.callPolicy.policy;
  const asks = destructive || policy === "confirm";

  if (holders.length === 0)
    return (
      <Card data-testid="try-tool">
        <CardHeader title="Try this Tool" />
        <p className="p-4 text-sm text-muted">
          No Agent Identity holds this Tool yet: assign{" "}
          <Link href={`/tools/sources/${tool.sourceId}`} className="text-accent underline">
            its Source
          </Link>{" "}
          to one, then try it as that identity.
        </p>
      </Card>
    );

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    let args: Record<string, unknown>;
    if (mode === "form" && fields) {
      const built = argumentsFrom(fields, values);
      setProblems(built.problems);
      if (Object.keys(built.problems).length) return;
      args = built.arguments;
    } else {
      const parsed = argumentsFromJson(json);
      setProblems(parsed.problem ? { "": parsed.problem } : {});
      if (!parsed.arguments) return;
      args = parsed.arguments;
    }
    if (asks) setConfirming(args);
    else call.mutate({ toolId: tool.id, identityId, arguments: args });
  }

  function switchMode(next: Mode) {
    // Carry what was typed across: the form's arguments into the editor, the editor's back into the form.
    if (next === "json" && fields) setJson(JSON.stringify(argumentsFrom(fields, values).arguments, null, 2));
    if (next === "form" && fields) {
      const parsed = argumentsFromJson(json).arguments ?? {};
      setValues(
        Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])),
      );
    }
    setProblems({});
    setMode(next);
  }

  const answer = call.data;
  return (
    <Card data-testid="try-tool">
      <CardHeader
        title="Try this Tool"
        description={
          <>
            Calls it as the identity you choose, exactly as its agents would through /mcp (as{" "}
            <code className="font-mono text-xs">{tool.modelFacingName}</code>). The call is recorded in the audit log.
          </>
        }
      />
      <form onSubmit={submit} className="space-y-4 p-4" noValidate>
        <div className="flex flex-wrap items-end gap-4">
          <div className="min-w-56 flex-1">
            <Field label="As Agent Identity" hint="Identities holding this Tool.">
              {(p) => (
                <Select {...p} value={identityId} onChange={(e) => setIdentityId(e.target.value)}>
                  {holders.map((h) => (
                    <option key={h.id} value={h.id}>
                      {h.name}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
          </div>
          {fields && (
            <SegmentedControl
              label="Arguments as"
              options={[
                { value: "form", label: "Form" },
                { value: "json", label: "JSON" },
              ]}
              value={mode}
              onChange={switchMode}
            />
          )}
        </div>

        {mode === "form" && fields ? (
          fields.length === 0 ? (
            <p className="text-sm text-muted">This Tool takes no arguments.</p>
          ) : (
            <div className="grid gap-4 md:grid-cols-2">
              {fields.map((f) => (
                <ArgumentField
                  key={f.name}
                  field={f}
                  value={values[f.name] ?? ""}
                  error={problems[f.name]}
                  onChange={(v) => setValues((all) => ({ ...all, [f.name]: v }))}
                />
              ))}
            </div>
          )
        ) : (
          <Field
            label="Arguments (JSON object)"
            hint="The Tool's arguments by name, as in the input schema below."
            error={problems[""]}
          >
            {(p) => (
              <Textarea
                {...p}
                value={json}
                onChange={(e) => setJson(e.target.value)}
                rows={8}
                spellCheck={false}
                className="font-mono text-xs"
              />
            )}
          </Field>
        )}

        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={call.isPending || !identityId}>
            <Play className="size-4" aria-hidden /> {call.isPending ? "Calling…" : "Call Tool"}
          </Button>
          {policy === "confirm" ? (
            <span className="text-sm text-danger" data-testid="try-confirm-note">
              This Tool asks for confirmation before each call (call policy confirm): agents’ users confirm in their
              client; here you confirm it yourself.
            </span>
          ) : policy === "approve" ? (
            <span className="text-sm text-muted" data-testid="try-approve-note">
              This Tool is under approve: the call is parked until an approver decides under{" "}
              <Link href="/tools/approvals" className="text-accent underline">
                Tools → Approvals
              </Link>
              ; call it again once approved.
            </span>
          ) : (
            destructive && (
              <span className="text-sm text-danger">
                This Tool says it is destructive: you will be asked to confirm.
              </span>
            )
          )}
        </div>
        {call.error && !confirming && (
          <Callout tone="danger" role="alert" title="Not called">
            {errorMessage(call.error)}
          </Callout>
        )}
      </form>

      <div aria-live="polite">
        {answer && (
          <div className="space-y-4 border-t border-border p-4" data-testid="try-result">
            <p className="text-sm text-muted">
              As <span className="font-medium text-fg">{answer.identity.name}</span>, answered in{" "}
              {formatCount(answer.ms)} ms.
            </p>
            {"error" in answer.response ? (
              <Callout tone="danger" title="Refused (JSON-RPC error)">
                {answer.response.error.message}
              </Callout>
            ) : (
              <ResultBlocks result={answer.response.result} />
            )}
            <section aria-labelledby="try-exchange" data-testid="try-exchange">
              <h3 id="try-exchange" className="mb-2 text-sm font-semibold">
                JSON-RPC exchange
              </h3>
              <div className="grid gap-3 lg:grid-cols-2">
                <JsonBlock value={answer.request} label="request" note="Request (tools/call)" maxHeight="20rem" />
                <JsonBlock value={answer.response} label="response" note="Response" maxHeight="20rem" />
              </div>
            </section>
          </div>
        )}
      </div>

      <ConfirmDialog
        open={Boolean(confirming)}
        onClose={() => setConfirming(null)}
        title={policy === "confirm" ? `Confirm this call of ${tool.nativeName}` : `Call ${tool.nativeName}?`}
        confirmLabel={policy === "confirm" ? "Confirm and call" : "Call it"}
        pendingLabel="Calling…"
        pending={call.isPending}
        error={call.error}
        errorTitle="Not called"
        onConfirm={() =>
          confirming && call.mutate({ toolId: tool.id, identityId, arguments: confirming, confirmed: true })
        }
      >
        {policy === "confirm" ? (
          <div className="space-y-3">
            <p>
              An operator put this Tool under <strong>confirm</strong>: every call waits for a person to say yes. An
              agent’s user is asked in their client; here you are that person. The call reaches its real Source, as{" "}
              <strong>{holders.find((h) => h.id === identityId)?.name}</strong>, with these arguments:
            </p>
            {confirming && <JsonBlock value={confirming} label="arguments to confirm" maxHeight="12rem" />}
          </div>
        ) : (
          <p>
            This Tool declares itself <strong>destructive</strong>: the call reaches its real Source and may change or
            delete data there, as if the identity’s agent had made it.
          </p>
        )}
      </ConfirmDialog>
    </Card>
  );
}

function ArgumentField({
  field,
  value,
  error,
  onChange,
}: {
  field: FormField;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const label = `${field.name}${field.required ? " (required)" : ""}`;
  const hint = [field.description, field.kind === "json" ? "JSON" : "", field.kind === "integer" ? "whole number" : ""]
    .filter(Boolean)
    .join(" · ");
  return (
    <div className={field.kind === "json" ? "md:col-span-2" : undefined}>
      <Field label={label} hint={hint || undefined} error={error}>
        {(p) =>
          field.kind === "enum" || field.kind === "boolean" ? (
            <Select {...p} value={value} onChange={(e) => onChange(e.target.value)}>
              <option value="">{field.required ? "Choose…" : "(leave out)"}</option>
              {(field.kind === "boolean" ? ["true", "false"] : field.options).map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </Select>
          ) : field.kind === "json" ? (
            <Textarea
              {...p}
              value={value}
              onChange={(e) => onChange(e.target.value)}
              rows={3}
              spellCheck={false}
              placeholder={field.hint}
              className="font-mono text-xs"
            />
          ) : (
            <Input
              {...p}
              value={value}
              onChange={(e) => onChange(e.target.value)}
              inputMode={field.kind === "text" ? undefined : "decimal"}
              placeholder={field.hint}
              autoComplete="off"
              spellCheck={false}
            />
          )
        }
      </Field>
    </div>
  );
}
