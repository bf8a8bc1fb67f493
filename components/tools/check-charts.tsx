"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Card, CardHeader } from "@/components/ui/card";
import { type ChartPoint, LineChart } from "@/components/ui/chart/line-chart";
import { formatBytes, formatCount } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { TRIGGER_LABELS } from "./labels";

// The newest checks a chart draws: enough for a week of hourly checks.
const CHECKS_CHARTED = 200;

/**
 * Tool count and definition bytes across a Source's checks (or registrations), oldest to
 * newest, failures marked on the axis: a catalog that grew, shrank or started failing
 * shows at a glance. The source page refreshes the checks whenever one finishes.
 */
export function CheckCharts({ sourceId, isHost }: { sourceId: string; isHost: boolean }) {
  const trpc = useTRPC();
  const checks = useQuery(trpc.sources.checks.queryOptions({ id: sourceId, limit: CHECKS_CHARTED }));
  const what = isHost ? "registration" : "check";
  return (
    <Card data-testid="check-charts">
      <CardHeader
        title="History"
        description={`Tools and definition bytes at each ${what}, oldest to newest; a cross marks a failed ${what}.`}
      />
      <div className="p-4">
        <QueryView query={checks} loadingLabel="Loading the history" loadingRows={2}>
          {(data) => <Charts rows={data.items} />}
        </QueryView>
      </div>
    </Card>
  );
}

type Row = {
  id: string;
  startedAt: Date;
  status: string;
  trigger: string;
  tools: number;
  bytes: number;
  failureCode: string | null;
};

function Charts({ rows }: { rows: Row[] }) {
  const finished = rows.filter((c) => c.status !== "running").reverse();
  const point = (c: Row, value: number, format: (n: number) => string): ChartPoint => {
    const failed = c.status !== "succeeded";
    const trigger = TRIGGER_LABELS[c.trigger] ?? c.trigger;
    return {
      id: c.id,
      at: c.startedAt,
      value: failed ? null : value,
      failed,
      note: failed ? `${trigger}: failed (${c.failureCode ?? c.status})` : `${trigger}: ${format(value)}`,
    };
  };
  const tools = (n: number) => `${formatCount(n)} Tools`;
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <LineChart
        title="Tools"
        testId="chart-tools"
        points={finished.map((c) => point(c, c.tools, tools))}
        format={(n) => formatCount(Math.round(n))}
      />
      <LineChart
        title="Definition bytes"
        testId="chart-bytes"
        points={finished.map((c) => point(c, c.bytes, formatBytes))}
        format={formatBytes}
      />
    </div>
  );
}
