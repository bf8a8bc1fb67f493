"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/trpc/client";
import { Card, CardHeader } from "@/components/ui/card";
import { formatCount } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { formatMs, formatRate } from "./labels";
import type { CallStatsView } from "./types";

const FILTER_PARAM = { identity: "identity", source: "source", tool: "toolId" } as const;

/**
 * An identity's, a Source's or a Tool's calls over the last 14 days: how many, how many
 * went wrong, p50/p95 latency, calls per day and failures by code. Polled each minute.
 */
export function CallStats({
  subject,
  id,
  title = "Calls",
}: {
  subject: "identity" | "source" | "tool";
  id: string;
  title?: string;
}) {
  const trpc = useTRPC();
  const stats = useQuery({ ...trpc.calls.stats.queryOptions({ subject, id, days: 14 }), refetchInterval: 60_000 });
  const allCalls = `/tools/calls?${FILTER_PARAM[subject]}=${encodeURIComponent(id)}`;
  return (
    <Card data-testid="call-stats">
      <CardHeader
        title={title}
        description="Tool Calls through /mcp in the last 14 days."
        actions={
          <Link href={allCalls} className="text-sm text-accent hover:underline">
            All calls →
          </Link>
        }
      />
      <div className="p-4 pt-0">
        <QueryView query={stats} loadingLabel="Counting calls" loadingRows={2}>
          {(data) => <StatsBody stats={data} />}
        </QueryView>
      </div>
    </Card>
  );
}

function StatsBody({ stats }: { stats: CallStatsView }) {
  if (!stats.calls) return <p className="text-sm text-muted">No calls in the last {stats.days} days.</p>;
  const wrong = stats.failed + stats.isError;
  const busiest = Math.max(...stats.perDay.map((d) => d.calls), 1);
  return (
    <div className="grid gap-4 md:grid-cols-[minmax(0,1fr)_minmax(0,2fr)_minmax(0,1fr)]">
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <Figure label="Calls" value={formatCount(stats.calls)} testId="stat-calls" />
        <Figure
          label="Error rate"
          value={formatRate(stats.errorRate)}
          hint={`${formatCount(stats.failed)} failed, ${formatCount(stats.isError)} Tool errors`}
          danger={wrong > 0}
          testId="stat-error-rate"
        />
        <Figure label="p50" value={formatMs(stats.p50Ms)} testId="stat-p50" />
        <Figure label="p95" value={formatMs(stats.p95Ms)} testId="stat-p95" />
      </dl>
      <figure aria-label="Calls per day">
        <figcaption className="mb-1 text-xs font-medium uppercase tracking-wide text-muted">Calls per day</figcaption>
        <ol className="flex h-24 items-end gap-1" data-testid="calls-per-day">
          {stats.perDay.map((d) => (
            <li
              key={d.day}
              className="relative flex-1 rounded-t bg-accent-soft"
              style={{ height: `${Math.max(4, (d.calls / busiest) * 100)}%` }}
              title={`${d.day}: ${formatCount(d.calls)} calls, ${formatCount(d.failed)} failed, ${formatCount(d.isError)} Tool errors; p50 ${formatMs(d.p50Ms)}, p95 ${formatMs(d.p95Ms)}`}
            >
              {d.failed + d.isError > 0 && (
                <span
                  className="absolute inset-x-0 bottom-0 rounded-t bg-danger"
                  style={{ height: `${((d.failed + d.isError) / d.calls) * 100}%` }}
                />
              )}
              <span className="sr-only">
                {d.day}: {d.calls} calls
              </span>
            </li>
          ))}
        </ol>
      </figure>
      <div>
        <p className="mb-1 text-xs font-medium uppercase tracking-wide text-muted">Failures by code</p>
        {stats.failuresByCode.length ? (
          <ul className="space-y-1 text-sm" data-testid="failures-by-code">
            {stats.failuresByCode.map((f) => (
              <li key={f.code} className="flex justify-between gap-2">
                <code className="truncate font-mono text-xs" title={f.code}>
                  {f.code}
                </code>
                <span className="tabular-nums">{formatCount(f.count)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted">None.</p>
        )}
      </div>
    </div>
  );
}

function Figure({
  label,
  value,
  hint,
  danger,
  testId,
}: {
  label: string;
  value: string;
  hint?: string;
  danger?: boolean;
  testId?: string;
}) {
  return (
    <div title={hint}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted">{label}</dt>
      <dd className={danger ? "text-lg font-semibold text-danger" : "text-lg font-semibold"} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
