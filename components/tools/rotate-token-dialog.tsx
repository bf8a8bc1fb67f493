"use client";

import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/components/ui/use-error";
import { HostTokenInstructions } from "./host-token-instructions";
import type { SourceView } from "./types";

export function RotateTokenDialog({
  source,
  open,
  onClose,
  onRotated,
}: {
  source: SourceView;
  open: boolean;
  onClose: () => void;
  onRotated: () => void;
}) {
  const trpc = useTRPC();
  const rotate = useMutation(trpc.sources.rotateHostToken.mutationOptions({ onSuccess: onRotated }));
  const close = () => {
    rotate.reset();
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title={rotate.data ? "New host token" : `Rotate the token of ${source.name}?`}>
      {rotate.data ? (
        <div className="space-y-4">
          <HostTokenInstructions
            token={rotate.data.hostToken}
            heartbeatTimeoutSeconds={rotate.data.source.heartbeatTimeoutSeconds ?? 120}
          />
          <div className="flex justify-end">
            <Button onClick={close}>Done</Button>
          </div>
        </div>
      ) : (
        <div className="space-y-4">
          <p className="text-sm">
            The current token (<code className="font-mono text-xs">{source.hostTokenPrefix}</code>) stops working at
            once. Give the new one to the host before its heartbeat timeout passes, or its Tools are withdrawn until it
            reconnects.
          </p>
          {rotate.error && (
            <Callout tone="danger" role="alert" title="Not rotated">
              {errorMessage(rotate.error)}
            </Callout>
          )}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button variant="danger" disabled={rotate.isPending} onClick={() => rotate.mutate({ id: source.id })}>
              {rotate.isPending ? "Rotating…" : "Rotate token"}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
