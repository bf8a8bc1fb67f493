"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/use-error";

/**
 * Pins a held Tool for an identity's selection, or unpins it, where the Tool is shown (the
 * holdings list, the Tool page, the listing card). The identity's listing and the Tool's
 * holders are read again after either.
 */
export function PinButton({
  identityId,
  name,
  pinned,
  label,
}: {
  identityId: string;
  /** The Tool's model-facing name. */
  name: string;
  pinned: boolean;
  /** Says what the button pins, for a screen reader ("exposed_1", "for billing-agent"). */
  label: string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = {
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.identities.pathKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.catalog.getTool.pathKey() }),
      ]),
  };
  const pin = useMutation(trpc.identities.pinTool.mutationOptions(refresh));
  const unpin = useMutation(trpc.identities.unpinTool.mutationOptions(refresh));
  const error = pin.error ?? unpin.error;
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        variant="secondary"
        size="sm"
        aria-pressed={pinned}
        aria-label={`${pinned ? "Unpin" : "Pin"} ${label}`}
        disabled={pin.isPending || unpin.isPending}
        onClick={() => (pinned ? unpin : pin).mutate({ identityId, name })}
      >
        {pinned ? "Unpin" : "Pin"}
      </Button>
      {error && (
        <span role="alert" className="text-xs text-danger">
          {errorMessage(error)}
        </span>
      )}
    </span>
  );
}
