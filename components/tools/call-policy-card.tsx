"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Card, CardHeader } from "@/components/ui/card";
import { Field, Select } from "@/components/ui/field";
import { ErrorState } from "@/components/ui/states";

type Policy = "none" | "confirm" | "approve";

const CHOICES: { value: Policy | ""; label: string }[] = [
  { value: "", label: "As its Source" },
  { value: "none", label: "None: calls run at once" },
  { value: "confirm", label: "Confirm: the agent's user confirms in their client" },
  { value: "approve", label: "Approve: an approver approves in the console" },
];

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
        <Field label="Policy">
          {(field) => (
            <Select
              {...field}
              value={callPolicy.own ?? ""}
              disabled={!canEdit || save.isPending}
              onChange={(e) => save.mutate({ toolId, policy: (e.target.value || null) as Policy | null })}
              className="w-96 max-w-full"
            >
              {CHOICES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        {save.isError && <ErrorState error={save.error} />}
      </div>
    </Card>
  );
}
