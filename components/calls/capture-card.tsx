"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/field";
import { formatDateTime } from "@/components/ui/format";

/**
 * Payload capture for one identity: off unless an admin turns it on, for a retention of
 * at most 30 days. Turning it off erases what was captured.
 */
export function CaptureCard({ identityId }: { identityId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isAdmin = useCan("admin");
  const capture = useQuery(trpc.calls.capture.queryOptions({ identityId }));
  const [days, setDays] = useState("7");
  const set = useMutation(
    trpc.calls.setCapture.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.calls.capture.queryKey({ identityId }) }),
    }),
  );
  const on = capture.data?.enabled === true;
  return (
    <Card data-testid="payload-capture">
      <CardHeader
        title="Payload capture"
        description={
          on && capture.data?.enabled
            ? `On since ${formatDateTime(capture.data.enabledAt)} (${capture.data.enabledBy}): arguments and results are kept ${capture.data.retentionDays} days, readable by admins.`
            : "Off: the call log keeps sizes, never arguments or results."
        }
        actions={
          isAdmin &&
          capture.data &&
          (on ? (
            <Button
              variant="secondary"
              disabled={set.isPending}
              onClick={() => set.mutate({ identityId, retentionDays: null })}
            >
              Turn off and erase
            </Button>
          ) : (
            <span className="flex items-center gap-2">
              <label htmlFor={`capture-days-${identityId}`} className="text-sm">
                Keep for
              </label>
              <Input
                id={`capture-days-${identityId}`}
                type="number"
                min={1}
                max={30}
                value={days}
                onChange={(e) => setDays(e.target.value)}
                className="w-20"
              />
              <span className="text-sm">days</span>
              <Button
                variant="secondary"
                disabled={set.isPending}
                onClick={() => set.mutate({ identityId, retentionDays: Number(days) })}
              >
                Turn on
              </Button>
            </span>
          ))
        }
      />
      {set.isError && (
        <p role="alert" className="px-4 pb-4 text-sm text-danger">
          {set.error.message}
        </p>
      )}
    </Card>
  );
}
