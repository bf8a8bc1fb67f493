"use client";

import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Dialog } from "@/components/ui/dialog";
import { formatCount } from "@/components/ui/format";
import { errorMessage } from "@/components/ui/use-error";
import { KIND_LABELS } from "./labels";
import type { SourceView } from "./types";

export function DeleteSourceDialog({
  source,
  open,
  onClose,
  onDeleted,
}: {
  source: SourceView;
  open: boolean;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const trpc = useTRPC();
  const remove = useMutation(trpc.sources.delete.mutationOptions({ onSuccess: onDeleted }));
  const close = () => {
    remove.reset();
    onClose();
  };
  const tools = source.toolCount;
  return (
    <Dialog open={open} onClose={close} title={`Delete ${source.name}?`}>
      <div className="space-y-4">
        <p className="text-sm">
          {tools > 0 ? (
            <>
              Its{" "}
              <strong>
                {formatCount(tools)} {tools === 1 ? "Tool" : "Tools"}
              </strong>{" "}
              will be removed from the catalog and from every Agent Identity that holds them; each identity records the
              loss.
            </>
          ) : (
            "It publishes no Tools, so no Agent Identity loses anything."
          )}{" "}
          The {KIND_LABELS[source.kind]}’s history goes with it. This cannot be undone.
        </p>
        {remove.error && (
          <Callout tone="danger" role="alert" title="Not deleted">
            {errorMessage(remove.error)}
          </Callout>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate({ id: source.id })}>
            {remove.isPending
              ? "Deleting…"
              : tools > 0
                ? `Delete and remove ${formatCount(tools)} ${tools === 1 ? "Tool" : "Tools"}`
                : "Delete"}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
