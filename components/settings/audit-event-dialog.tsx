"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Dialog } from "@/components/ui/dialog";
import { formatDateTime } from "@/components/ui/format";

export type AuditEvent = {
  id: string;
  at: Date;
  actorType: string;
  actorId?: string | null;
  actorLabel: string;
  action: string;
  targetType: string;
  targetId: string | null;
  targetLabel: string | null;
  details: unknown;
};

// Where an object of each kind lives in the console; kinds without a page get none.
const PAGES: Record<string, (id: string) => string> = {
  source: (id) => `/tools/sources/${id}`,
  identity: (id) => `/agents/${id}`,
  tool: (id) => `/tools/catalog/${id}`,
  scope: (id) => `/memory/scopes/${id}`,
  memory: (id) => `/memory/memories/${id}`,
  thread: (id) => `/memory/threads/${id}`,
};
/** The console page of an object, or null when its kind has none. */
export function pageFor(kind: string, id: string): string | null {
  return PAGES[kind]?.(id) ?? null;
}

// Keys in details that hold such ids.
const ID_KEYS: Record<string, keyof typeof PAGES> = {
  sourceId: "source",
  identityId: "identity",
  toolId: "tool",
  scopeId: "scope",
  memoryId: "memory",
  threadId: "thread",
};

/** An id as a link to its page when the console has one, else as code. */
export function IdLink({ kind, id }: { kind: string; id: string }) {
  const page = PAGES[kind];
  return page ? (
    <Link href={page(id)} className="break-all font-mono text-xs text-accent hover:underline">
      {id}
    </Link>
  ) : (
    <code className="break-all font-mono text-xs">{id}</code>
  );
}

function Value({ name, value }: { name: string; value: unknown }): ReactNode {
  const kind = ID_KEYS[name];
  if (kind && typeof value === "string") return <IdLink kind={kind} id={value} />;
  if (value && typeof value === "object" && !Array.isArray(value))
    return (
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 border-l-2 border-border pl-3">
        {Object.entries(value as Record<string, unknown>).map(([k, v]) => (
          <Entry key={k} name={k} value={v} />
        ))}
      </dl>
    );
  return <span className="break-all font-mono text-xs">{JSON.stringify(value)}</span>;
}

function Entry({ name, value }: { name: string; value: unknown }) {
  return (
    <>
      <dt className="text-muted">{name}</dt>
      <dd className="min-w-0">
        <Value name={name} value={value} />
      </dd>
    </>
  );
}

/** One audit event in full: who, what, which object (linked), and every detail with ids linked. */
export function AuditEventDialog({ event, onClose }: { event: AuditEvent; onClose: () => void }) {
  const details =
    event.details && typeof event.details === "object" ? Object.entries(event.details as Record<string, unknown>) : [];
  return (
    <Dialog open onClose={onClose} wide title={event.action} description={formatDateTime(event.at)}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm" data-testid="audit-event">
        <dt className="text-muted">Actor</dt>
        <dd>
          {event.actorLabel} <Badge>{event.actorType.replace("_", " ")}</Badge>
          {event.actorType === "agent" && event.actorId && (
            <div>
              <IdLink kind="identity" id={event.actorId} />
            </div>
          )}
        </dd>
        <dt className="text-muted">Object</dt>
        <dd>
          {event.targetLabel ?? "—"} <span className="text-xs text-muted">{event.targetType}</span>
          {event.targetId && (
            <div>
              <IdLink kind={event.targetType} id={event.targetId} />
            </div>
          )}
        </dd>
        <dt className="text-muted">Event id</dt>
        <dd>
          <code className="break-all font-mono text-xs">{event.id}</code>
        </dd>
        {details.length > 0 && (
          <>
            <dt className="text-muted">Details</dt>
            <dd>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
                {details.map(([k, v]) => (
                  <Entry key={k} name={k} value={v} />
                ))}
              </dl>
            </dd>
          </>
        )}
      </dl>
    </Dialog>
  );
}
