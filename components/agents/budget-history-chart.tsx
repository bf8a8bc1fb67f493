"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { LineChart } from "@/components/ui/chart/line-chart";
import { formatBytes, formatCount } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import type { BudgetSnapshot, IdentityView } from "./types";

/** The identity's budget use over time (a snapshot whenever it changed), up to now, against its limit. */
export function BudgetHistoryChart({ identity }: { identity: IdentityView }) {
  const trpc = useTRPC();
  const history = useQuery(trpc.identities.budgetHistory.queryOptions({ id: identity.id }));
  return (
    <QueryView query={history} loadingRows={2} loadingLabel="Loading budget history">
      {(snapshots) => <BudgetHistory identity={identity} snapshots={snapshots} />}
    </QueryView>
  );
}

function BudgetHistory({ identity, snapshots }: { identity: IdentityView; snapshots: BudgetSnapshot[] }) {
  const points = snapshots.map((h) => ({
    id: h.at.toISOString(),
    at: h.at,
    value: h.budget.usedBytes,
    note: `${formatBytes(h.budget.usedBytes)} (${formatCount(h.tools)} Tools)`,
  }));
  // The line runs on to now at today's use, which the latest snapshot may not show yet.
  const now = new Date();
  points.push({
    id: "now",
    at: now,
    value: identity.budget.usedBytes,
    note: `now: ${formatBytes(identity.budget.usedBytes)} (${formatCount(identity.tools)} Tools)`,
  });
  return (
    <LineChart
      title="Budget use over time"
      testId="chart-budget"
      points={points}
      format={formatBytes}
      limit={identity.budget.limitBytes}
      limitLabel={`budget ${formatBytes(identity.budget.limitBytes)}`}
    />
  );
}
