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
          <Field label="Calls a minute">
            {(field) => (
              <Input
                {...field}
                type="number"
                min={1}
                inputMode="numeric"
                placeholder="No limit"
                value={perMinute}
                disabled={!canEdit}
                onChange={(e) => setPerMinute(e.target.value)}
                className="w-36"
              />
            )}
          </Field>
          <Field label="Calls at once">
            {(field) => (
              <Input
                {...field}
                type="number"
                min={1}
                inputMode="numeric"
                placeholder="No limit"
                value={concurrent}
                disabled={!canEdit}
                onChange={(e) => setConcurrent(e.target.value)}
                className="w-36"
              />
            )}
          </Field>
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
