"use client";

import Link from "next/link";
import { useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { formatBytes, formatDateTime, formatRelative } from "@/components/ui/format";
import { useNow } from "@/components/ui/use-now";
import { formatPercent, toolCount } from "./labels";
import type { IdentityView } from "./types";
import { UnassignSourceDialog, type UnassignTarget } from "./unassign-source-dialog";

/**
 * Why an identity is over budget and the one-click ways back. It leads the page because
 * until it is resolved the identity's agents are refused.
 */
export function OverBudgetAlert({ identity }: { identity: IdentityView }) {
  const canWrite = useCan("operator");
  const now = useNow();
  const [unassigning, setUnassigning] = useState<UnassignTarget | null>(null);
  const over = identity.overBudget;
  if (!over) return null;
  const { pushedBy, remedies } = over;
  const sourceOf = (id: string) => identity.sources.find((s) => s.sourceId === id);

  return (
    <Callout
      tone="danger"
      className="mb-6"
      data-testid="over-budget"
      title={`Over budget by ${formatBytes(over.overByBytes)}`}
    >
      <div className="space-y-3">
        <p>
          Its Tool definitions and instructions take {formatBytes(identity.budget.usedBytes)} of a{" "}
          {formatBytes(identity.budget.limitBytes)} budget (
          {formatPercent(identity.budget.usedBytes, identity.budget.limitBytes)}). Its agents are refused with an error
          naming this state until it is back under.
        </p>
        {pushedBy && (
          <p>
            Pushed over when{" "}
            <Link href={`/tools/sources/${pushedBy.sourceId}`} className="font-medium underline underline-offset-2">
              {pushedBy.sourceName}
            </Link>{" "}
            {pushedBy.reason === "host_back" ? "came back with" : "grew by"} {toolCount(pushedBy.changedTools)}{" "}
            <time dateTime={pushedBy.at.toISOString()} title={formatDateTime(pushedBy.at)}>
              {formatRelative(pushedBy.at, now)}
            </time>
            .
          </p>
        )}
        {remedies.length > 0 ? (
          <div>
            <p>Unassigning any one of these brings it back under:</p>
            <ul className="mt-2 flex flex-wrap gap-2">
              {remedies.map((r) => (
                <li key={r.sourceId}>
                  {canWrite ? (
                    <Button
                      size="sm"
                      variant="secondary"
                      onClick={() =>
                        setUnassigning({
                          sourceId: r.sourceId,
                          name: r.sourceName,
                          bytes: r.freesBytes,
                          tools: sourceOf(r.sourceId)?.tools ?? 0,
                        })
                      }
                    >
                      Unassign {r.sourceName}
                      <span className="font-normal text-muted">frees {formatBytes(r.freesBytes)}</span>
                    </Button>
                  ) : (
                    <span className="inline-flex rounded-md border border-border bg-surface px-2 py-1">
                      {r.sourceName} <span className="ml-1 text-muted">frees {formatBytes(r.freesBytes)}</span>
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </div>
        ) : (
          <p>
            No single Source frees enough on its own: unassign several under Sources, or shorten the instructions under
            Settings.
          </p>
        )}
        {!canWrite && <p className="text-muted">Unassigning a Source needs the operator role.</p>}
      </div>
      <UnassignSourceDialog identity={identity} source={unassigning} onClose={() => setUnassigning(null)} />
    </Callout>
  );
}
