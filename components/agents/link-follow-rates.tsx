"use client";

import { useQuery } from "@tanstack/react-query";
import { Link2 } from "lucide-react";
import { useTRPC } from "@/components/trpc/client";
import { Card, CardHeader } from "@/components/ui/card";
import { formatCount } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { momentColumn } from "@/components/ui/relative-time";
import { RowsTable } from "@/components/ui/rows-table";
import { EmptyState } from "@/components/ui/states";
import { useNow } from "@/components/ui/use-now";
import type { LinkFollowRate } from "./types";

const percent = new Intl.NumberFormat("en", { style: "percent", maximumFractionDigits: 0 });

/**
 * Per MCP client of this identity: of the memories search or briefing returned truncated,
 * how many its agent then read in full (docs/mcp.md, "Resource links: the evidence").
 */
export function LinkFollowRates({ identity }: { identity: { id: string; name: string } }) {
  const trpc = useTRPC();
  const now = useNow();
  const rates = useQuery(trpc.identities.linkFollowRates.queryOptions({ id: identity.id }));

  return (
    <Card data-testid="link-follow-rates">
      <CardHeader
        title="Truncated memories read in full"
        description={
          rates.data
            ? `Per MCP client: of the memories search or briefing returned truncated with a link, the share its agent read in full — by the link (qm://memory) or with get_memories — within ${formatCount(rates.data.windowMinutes)} minutes, on the same token. The last ${formatCount(rates.data.keptDays)} days.`
            : "Per MCP client: of the memories search or briefing returned truncated with a link, the share its agent read in full."
        }
      />
      <div className="p-4">
        <QueryView query={rates} loadingLabel="Loading follow rates" loadingRows={2}>
          {(data) =>
            data.clients.length === 0 ? (
              <EmptyState title="No truncated memories yet" icon={<Link2 className="size-8" />}>
                No search or briefing has returned {identity.name} a truncated memory in the last{" "}
                {formatCount(data.keptDays)} days.
              </EmptyState>
            ) : (
              <RowsTable
                label="Follow rate per client"
                rowTestId="link-follow-row"
                rows={data.clients.map((c) => ({ ...c, id: `${c.clientName}\u0000${c.clientVersion}` }))}
                columns={[
                  {
                    key: "client",
                    header: "Client",
                    className: "font-medium",
                    cell: (c) =>
                      c.clientName ? (
                        <>
                          {c.clientName} <span className="text-muted">{c.clientVersion || "no version"}</span>
                        </>
                      ) : (
                        <span className="text-muted">Unnamed client</span>
                      ),
                  },
                  {
                    key: "rate",
                    header: "Follow rate",
                    className: "tabular-nums",
                    cell: (c) => (
                      <span data-testid="link-follow-rate">
                        {c.rate === null ? "Not yet known" : percent.format(c.rate)}
                      </span>
                    ),
                  },
                  {
                    key: "followed",
                    header: "Read in full",
                    className: "tabular-nums",
                    cell: (c) =>
                      `${formatCount(c.followed)} of ${formatCount(c.offered)}${c.open ? ` (${formatCount(c.open)} still open)` : ""}`,
                  },
                  {
                    key: "how",
                    header: "By link / get_memories",
                    className: "tabular-nums",
                    cell: (c) => `${formatCount(c.byResource)} / ${formatCount(c.byGetMemories)}`,
                  },
                  momentColumn<LinkFollowRate & { id: string }>(
                    "last",
                    "Last truncated return",
                    (c) => c.lastOfferedAt,
                    now,
                  ),
                ]}
              />
            )
          }
        </QueryView>
      </div>
    </Card>
  );
}
