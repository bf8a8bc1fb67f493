"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Card, CardHeader } from "@/components/ui/card";
import { Field, Select } from "@/components/ui/field";
import { ErrorState } from "@/components/ui/states";
import { Switch } from "@/components/ui/switch";

type Policy = "none" | "confirm" | "approve";

const CHOICES: { value: Policy | ""; label: string }[] = [
  { value: "", label: "As its Source" },
  { value: "none", label: "None: calls run at once" },
  { value: "confirm", label: "Confirm: the agent's user confirms in their client" },
  { value: "approve", label: "Approve: an approver approves in the console" },
];

function PolicySelect(props: {
  label: string;
  value: Policy | "";
  choices: typeof CHOICES;
  disabled: boolean;
  onChange: (value: Policy | "") => void;
}) {
  return (
    <Field label={props.label}>
      {(field) => (
        <Select
          {...field}
          value={props.value}
          disabled={props.disabled}
          onChange={(e) => props.onChange(e.target.value as Policy | "")}
          className="w-96 max-w-full"
        >
          {props.choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

/** A Tool's call policy: who must agree before a call runs. Operators change it; others read it. */
export function CallPolicyCard({
  toolId,
  callPolicy,
}: {
  toolId: string;
  callPolicy: { own: Policy | null; policy: Policy; reason: string };
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canEdit = useCan("operator");
  const save = useMutation(
    trpc.catalog.setCallPolicy.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.catalog.getTool.queryKey({ id: toolId }) }),
    }),
  );
  return (
    <Card data-testid="call-policy">
      <CardHeader
        title="Call policy"
        description={`Now: ${callPolicy.policy} — ${callPolicy.reason}. Agents see it in find_tools.`}
      />
      <div className="p-4 pt-0">
        <PolicySelect
          label="Policy"
          value={callPolicy.own ?? ""}
          choices={CHOICES}
          disabled={!canEdit || save.isPending}
          onChange={(value) => save.mutate({ toolId, policy: (value || null) as Policy | null })}
        />
        {save.isError && <ErrorState error={save.error} />}
      </div>
    </Card>
  );
}

/** A Source's call policy: applies to each of its Tools that has none of its own. */
export function SourceCallPolicyCard({ sourceId, policy }: { sourceId: string; policy: Policy }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canEdit = useCan("operator");
  const save = useMutation(
    trpc.sources.setCallPolicy.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.sources.get.queryKey({ id: sourceId }) }),
    }),
  );
  return (
    <Card data-testid="source-call-policy">
      <CardHeader
        title="Call policy"
        description="Who must agree before a call of this Source's Tools runs. A Tool's own policy (on its page) wins."
      />
      <div className="p-4 pt-0">
        <PolicySelect
          label="Policy for its Tools"
          value={policy}
          choices={CHOICES.filter((c) => c.value !== "")}
          disabled={!canEdit || save.isPending}
          onChange={(value) => save.mutate({ sourceId, policy: value as Policy })}
        />
        {save.isError && <ErrorState error={save.error} />}
      </div>
    </Card>
  );
}

/** The default rule, for the whole installation: confirm destructive Tools unless set otherwise. */
export function CallPolicyDefaultsCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canEdit = useCan("operator");
  const defaults = useQuery(trpc.catalog.callPolicyDefaults.queryOptions());
  const save = useMutation(
    trpc.catalog.setCallPolicyDefaults.mutationOptions({
      onSuccess: (data) => queryClient.setQueryData(trpc.catalog.callPolicyDefaults.queryKey(), data),
    }),
  );
  if (!defaults.data) return null;
  const on = defaults.data.confirmDestructive;
  return (
    <section
      aria-labelledby="call-policy-defaults-title"
      className="mt-4 flex flex-wrap items-start justify-between gap-4 rounded-lg border border-border bg-surface px-4 py-3"
    >
      <div>
        <h2 id="call-policy-defaults-title" className="text-sm font-semibold">
          Destructive Tools
        </h2>
        <p className="text-sm" id="call-policy-defaults-state">
          Tools whose annotations say destructiveHint: <strong>{on ? "confirmed by the user" : "run at once"}</strong>
        </p>
        <p className="mt-0.5 max-w-2xl text-xs text-muted">
          When on, such a Tool is under confirm unless its own or its Source's call policy says otherwise.
          {!canEdit && " Only an operator can change this."}
        </p>
        {save.isError && <ErrorState error={save.error} />}
      </div>
      {canEdit && (
        <Switch
          label="Confirm destructive Tools by default"
          describedBy="call-policy-defaults-state"
          checked={on}
          disabled={save.isPending}
          onChange={(next) => save.mutate({ confirmDestructive: next })}
        />
      )}
    </section>
  );
}
