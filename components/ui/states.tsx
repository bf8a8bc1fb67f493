"use client";

import { AlertTriangle, Inbox, Loader2 } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "./button";

export function EmptyState({
  title,
  children,
  action,
  icon,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <div
      className="flex flex-col items-center justify-center rounded-lg border border-dashed border-border px-6 py-14 text-center"
      data-testid="empty-state"
    >
      <div className="mb-3 text-muted" aria-hidden>
        {icon ?? <Inbox className="size-8" />}
      </div>
      <h2 className="text-base font-semibold">{title}</h2>
      {children && <div className="mt-1 max-w-md text-sm text-muted">{children}</div>}
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}

export function ErrorState({ error, retry }: { error: { message: string } | null | undefined; retry?: () => void }) {
  return (
    <div
      role="alert"
      className="flex items-start gap-3 rounded-lg border border-danger/40 bg-danger-soft px-4 py-3 text-sm"
      data-testid="error-state"
    >
      <AlertTriangle className="mt-0.5 size-4 shrink-0 text-danger" aria-hidden />
      <div className="flex-1">
        <p className="font-medium text-danger">Could not load this.</p>
        <p className="mt-0.5 text-fg">{error?.message ?? "Unknown error."}</p>
      </div>
      {retry && (
        <Button size="sm" variant="secondary" onClick={retry}>
          Retry
        </Button>
      )}
    </div>
  );
}

export function LoadingRows({ rows = 5, label = "Loading" }: { rows?: number; label?: string }) {
  return (
    <div role="status" aria-live="polite" className="space-y-2" data-testid="loading-state">
      <span className="sr-only">{label}…</span>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <div key={i} className="h-9 animate-pulse rounded-md bg-surface-2" />
      ))}
    </div>
  );
}

export function Spinner({ label }: { label: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-2 text-sm text-muted">
      <Loader2 className="size-4 animate-spin" aria-hidden />
      {label}
    </span>
  );
}
