"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { IdentityStateBadge } from "@/components/agents/identity-state-badge";
import { useTRPC } from "@/components/trpc/client";
import { Card, CardHeader } from "@/components/ui/card";
import { formatCount, formatDateTime, formatRelative } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { useNow } from "@/components/ui/use-now";
import { LIMITS } from "@/universal/limits";
import type { SourceView } from "./types";

/** The Agent Identities holding this Source, with their budget state: who a failure reaches. */
export function UsedBy({ sourceId }: { sourceId: string }) {
  const trpc = useTRPC();
  const identities = useQuery(trpc.identities.list.queryOptions({ sourceId }));
  return (
    <Card data-testid="used-by">
      <CardHeader
        title="Used by"
        description="Agent Identities that hold this Source’s Compatible Tools, and whether each is within its budget."
      />
      <div className="p-4">
        <QueryView
          query={identities}
          loadingLabel="Loading the identities"
          loadingRows={2}
          empty={<p className="text-sm text-muted">No Agent Identity holds this Source yet.</p>}
        >
          {(data) => (
            <ul className="divide-y divide-border">
              {data.map((i) => (
                <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 py-2 first:pt-0 last:pb-0">
                  <Link href={`/agents/${i.id}`} className="min-w-0 truncate font-medium text-accent hover:underline">
                    {i.name}
                  </Link>
                  <span className="flex items-center gap-3 text-sm text-muted">
                    <span className="tabular-nums">{formatCount(i.tools)} Tools held</span>
                    <IdentityStateBadge state={i.state} />
                  </span>
                </li>
              ))}
            </ul>
          )}
        </QueryView>
      </div>
    </Card>
  );
}

type Change = { from?: unknown; to?: unknown } | boolean | unknown;

function describeChange(key: string, change: Change): string {
  const words: Record<string, string> = {
    url: "URL",
    headerNames: "Headers",
    checkIntervalSeconds: "Check interval",
    heartbeatTimeoutSeconds: "Heartbeat timeout",
    name: "Name",
    description: "Description",
    paused: "Paused",
    headersAtNewOrigin: "Headers at the new origin",
  };
  const label = words[key] ?? key;
  const show = (v: unknown) =>
    Array.isArray(v) ? (v.length ? v.join(", ") : "none") : v === null || v === undefined ? "—" : String(v);
  if (change && typeof change === "object" && "from" in change && "to" in change)
    return `${label}: ${show((change as { from: unknown }).from)} → ${show((change as { to: unknown }).to)}`;
  if (key === "headersAtNewOrigin" && change && typeof change === "object")
    return `${label}: ${show((change as { headers?: unknown }).headers)}`;
  return `${label}: ${show(change)}`;
}

/**
 * What changed in the Source's configuration since its last good check, from the audit
 * log: the first suspect when a Connection that worked starts failing. Header values never
 * reach the audit log, only their names.
 */
export function ChangesSinceLastGood({ source }: { source: SourceView }) {
  const trpc = useTRPC();
  const now = useNow();
  const since = source.lastSuccessAt ?? undefined;
  const events = useQuery({
    ...trpc.audit.list.queryOptions({
      targetType: "source",
      targetId: source.id,
      from: since,
      limit: LIMITS.SOURCE_CHANGES_SHOWN.value,
    }),
    enabled: Boolean(source.failingSince),
  });
  if (!source.failingSince) return null;
  const rows = events.data?.items ?? [];
  return (
    <section aria-labelledby="changes-since-good" className="mb-6" data-testid="changes-since-good">
      <h2 id="changes-since-good" className="mb-2 text-sm font-semibold">
        {since
          ? `Configuration changes since the last good check (${formatRelative(since, now)})`
          : "Configuration changes since it was added"}
      </h2>
      <QueryView query={events} loadingRows={2} loadingLabel="Loading recent changes">
        {() =>
          rows.length === 0 ? (
            <p className="text-sm text-muted">
              None: nobody changed this Source since then, so look at the server’s side first.
            </p>
          ) : (
            <ol className="space-y-2 border-l-2 border-border pl-4">
              {rows.map((e) => {
                const details = e.details && typeof e.details === "object" ? (e.details as Record<string, Change>) : {};
                const lines = e.action.startsWith("source.")
                  ? Object.entries(details).map(([k, v]) => describeChange(k, v))
                  : [];
                return (
                  <li key={e.id} className="text-sm">
                    <p>
                      <code className="font-mono text-xs">{e.action}</code> by{" "}
                      <span className="font-medium">{e.actorLabel}</span>{" "}
                      <time className="text-muted" dateTime={e.at.toISOString()} title={formatDateTime(e.at)}>
                        {formatRelative(e.at, now)}
                      </time>
                    </p>
                    {lines.length > 0 && (
                      <ul className="mt-0.5 text-xs text-muted [overflow-wrap:anywhere]">
                        {lines.map((l) => (
                          <li key={l}>{l}</li>
                        ))}
                      </ul>
                    )}
                  </li>
                );
              })}
            </ol>
          )
        }
      </QueryView>
      {events.data && events.data.total > rows.length && (
        <Link
          href={`/settings/audit-log?q=${encodeURIComponent(source.name)}`}
          className="mt-2 inline-block text-sm text-accent hover:underline"
        >
          All {formatCount(events.data.total)} changes in the audit log
        </Link>
      )}
    </section>
  );
}
