"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field, Select } from "@/components/ui/field";
import { ErrorState } from "@/components/ui/states";

const DESCRIPTIONS = {
  review:
    "Review: a new Tool, or one whose definition changed since it was approved, waits in Tools → Review; no model is offered it until an operator approves it.",
  trust: "Trust: every Tool the server publishes is offered as it is, without review.",
} as const;

/** A Source's review policy, what of it waits for review, and "review everything again". */
export function SourceReviewCard({ sourceId, policy }: { sourceId: string; policy: "review" | "trust" }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canEdit = useCan("operator");
  const pending = useQuery(trpc.review.queue.queryOptions({ sourceId, limit: 1 }));
  const refresh = () => {
    queryClient.invalidateQueries({ queryKey: trpc.review.pathKey() });
    queryClient.invalidateQueries({ queryKey: trpc.sources.pathKey() });
    queryClient.invalidateQueries({ queryKey: trpc.catalog.pathKey() });
  };
  const setPolicy = useMutation(trpc.review.setPolicy.mutationOptions({ onSuccess: refresh }));
  const again = useMutation(trpc.review.reviewAgain.mutationOptions({ onSuccess: refresh }));
  const waiting = pending.data?.total ?? 0;
  return (
    <Card data-testid="review-policy">
      <CardHeader
        title="Review of Tool definitions"
        description={DESCRIPTIONS[policy]}
        actions={
          waiting > 0 ? (
            <Link href="/tools/review" className="text-sm font-medium text-accent hover:underline">
              {waiting} waiting for review
            </Link>
          ) : undefined
        }
      />
      <div className="flex flex-wrap items-end gap-3 p-4 pt-0">
        <Field label="Policy">
          {(field) => (
            <Select
              {...field}
              value={policy}
              disabled={!canEdit || setPolicy.isPending}
              onChange={(e) => setPolicy.mutate({ sourceId, policy: e.target.value as "review" | "trust" })}
              className="w-72 max-w-full"
            >
              <option value="review">Review changed and new Tools</option>
              <option value="trust">Trust what the server publishes</option>
            </Select>
          )}
        </Field>
        {canEdit && (
          <Button
            variant="secondary"
            disabled={again.isPending}
            onClick={() => again.mutate({ sourceId })}
            title="Every Tool of this Source waits for review again; none is offered until approved."
          >
            Review everything again
          </Button>
        )}
        {again.data && (
          <p className="text-sm text-muted" aria-live="polite">
            {again.data.awaiting} Tools now wait for review.
          </p>
        )}
      </div>
      {(setPolicy.isError || again.isError) && (
        <div className="px-4 pb-4">
          <ErrorState error={setPolicy.error ?? again.error} />
        </div>
      )}
    </Card>
  );
}
