"use client";

import type { ReactNode } from "react";
import { useState } from "react";
import { Badge } from "./badge";
import { ConfirmDialog } from "./confirm-dialog";
import { formatDateTime, formatRelative } from "./format";

/** A credential's state: Active, or Revoked and when. */
export function CredentialStatus({ revokedAt, now }: { revokedAt: Date | string | null; now?: number }) {
  return revokedAt ? (
    <Badge tone="danger">
      <span title={formatDateTime(revokedAt)}>Revoked {formatRelative(revokedAt, now)}</span>
    </Badge>
  ) : (
    <Badge tone="ok">Active</Badge>
  );
}

/** The revoke mutation of a list of credentials (tRPC's mutation result has this shape). */
interface RevokeMutation {
  mutate(input: { id: string }, options?: { onSuccess?: () => void }): void;
  reset(): void;
  isPending: boolean;
  error: { message: string } | null;
}

/**
 * Revoking one credential of a list: a row's button asks (`ask`), the dialog says what
 * revoking does, keeps the server's refusal in view, and closes once it is done.
 */
export function useRevoke<T extends { id: string; name: string }>(revoke: RevokeMutation) {
  const [target, setTarget] = useState<T | null>(null);
  const close = () => {
    revoke.reset();
    setTarget(null);
  };
  return {
    ask: (item: T) => setTarget(item),
    dialog: {
      target,
      pending: revoke.isPending,
      error: revoke.error,
      onClose: close,
      onConfirm: () => target && revoke.mutate({ id: target.id }, { onSuccess: () => setTarget(null) }),
    },
  };
}

export function RevokeDialog({
  target,
  pending,
  error,
  onClose,
  onConfirm,
  what,
  children,
}: ReturnType<typeof useRevoke>["dialog"] & {
  /** What is revoked, for the title when no row is open ("token", "client"). */
  what: string;
  /** What revoking it does, in a sentence or two. */
  children: ReactNode;
}) {
  return (
    <ConfirmDialog
      open={Boolean(target)}
      onClose={onClose}
      title={target ? `Revoke “${target.name}”?` : `Revoke ${what}`}
      confirmLabel="Revoke"
      pendingLabel="Revoking…"
      pending={pending}
      error={error}
      errorTitle="Not revoked"
      onConfirm={onConfirm}
    >
      <p>{children}</p>
    </ConfirmDialog>
  );
}
