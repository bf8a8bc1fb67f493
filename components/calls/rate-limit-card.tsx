"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { ErrorState } from "@/components/ui/states";

const parse = (text: string): number | null => (text.trim() === "" ? null : Number(text));

/**
 * An identity's or a Tool's rate limits: calls a minute and calls at once, blank for none.
 * Operators and admins change them; everyone else reads them.
 */
export function RateLimitCard({ subjectType, subjectId }: { subjectType: "identity" | "tool"; subjectId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canEdit = useCan("operator");
  const subject = { subjectType, subjectId };
  const current = useQuery(trpc.rateLimits.get.queryOptions(subject));
  const [perMinute, setPerMinute] = useState("");
  const [concurrent, setConcurrent] = useState("");
  useEffect(() => {
    if (!current.data) return;
    setPerMinute(current.data.perMinute?.toString() ?? "");
    setConcurrent(current.data.concurrent?.toString() ?? "");
  }, [current.data]);
  const save = useMutation(
    trpc.rateLimits.set.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.rateLimits.get.queryKey(subject) }),
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ ...subject, perMinute: parse(perMinute), concurrent: parse(concurrent) });
  };
  const who = subjectType === "identity" ? "this identity's agents" : "calls to this Tool, from any identity";
  return (
    <Card data-testid="rate-limits">
      <CardHeader
        title="Rate limits"
        description={`Calls over a limit are not made: ${who} get RATE_LIMITED and when to retry. Blank means no limit.`}
      />
      {current.isError ? (
        <div className="p-4 pt-0">
          <ErrorState error={current.error} retry={() => current.refetch()} />
        </div>
      ) : (
        <form className="flex flex-wrap items-end gap-3 p-4 pt-0" onSubmit={submit}>
          <LimitField label="Calls a minute" value={perMinute} onChange={setPerMinute} disabled={!canEdit} />
          <LimitField label="Calls at once" value={concurrent} onChange={setConcurrent} disabled={!canEdit} />
          {canEdit && (
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? "Saving…" : "Save limits"}
            </Button>
          )}
          {save.isSuccess && !save.isPending && <span className="text-sm text-ok">Saved.</span>}
          {save.isError && (
            <p role="alert" className="w-full text-sm text-danger">
              {save.error.message}
            </p>
          )}
        </form>
      )}
    </Card>
  );
}

/** One limit's input: a whole number, or blank for none. */
function LimitField(props: { label: string; value: string; onChange: (value: string) => void; disabled: boolean }) {
  return (
    <Field label={props.label}>
      {(field) => (
        <Input
          {...field}
          type="number"
          min={1}
          inputMode="numeric"
          placeholder="No limit"
          value={props.value}
          disabled={props.disabled}
          onChange={(e) => props.onChange(e.target.value)}
          className="w-36"
        />
      )}
    </Field>
  );
}
