"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Play } from "lucide-react";
import { useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { formatCount } from "@/components/ui/format";
import { errorMessage } from "@/components/ui/use-error";
import { PROPOSAL_KIND_LABELS } from "./labels";
import { ProposalQueue } from "./proposal-queue";
import { ScopedPage } from "./scoped-page";
import type { ScopeItem } from "./types";
import type { Notice } from "./use-proposal-review";

export function ProposalsPage() {
  const canWrite = useCan("curator");
  const [report, setReport] = useState<Notice | null>(null);
  return (
    <ScopedPage
      title="Proposals"
      description="The consolidator's review queue: duplicates to discard, near-duplicates to merge, outdated facts to supersede, and agents' writes to admit where a scope holds them for review. Nothing changes until you accept."
      loadingLabel="Loading proposals"
      actions={(scope) => canWrite && <RunConsolidator scope={scope} onReport={setReport} />}
    >
      {(scope) => (
        <>
          {report && (
            <Callout tone={report.tone} className="mb-4" role="status" data-testid="consolidator-report">
              {report.text}
            </Callout>
          )}
          <ProposalQueue key={scope.id} scope={scope} />
        </>
      )}
    </ScopedPage>
  );
}

function RunConsolidator({ scope, onReport }: { scope: ScopeItem; onReport: (n: Notice) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const run = useMutation(
    trpc.consolidator.run.mutationOptions({
      onSuccess: async (r) => {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.proposals.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.scopes.pathKey() }),
        ]);
        // The consolidator files no admit proposals: agents' writes do.
        const kinds = (["merge", "supersede", "discard"] as const)
          .filter((k) => r.byKind[k] > 0)
          .map((k) => `${formatCount(r.byKind[k])} ${PROPOSAL_KIND_LABELS[k]?.toLowerCase()}`)
          .join(", ");
        onReport({
          tone: r.filed ? "ok" : "info",
          text: r.filed
            ? `The consolidator filed ${formatCount(r.filed)} new ${r.filed === 1 ? "proposal" : "proposals"} (${kinds}) in ${formatCount(r.ms)} ms.`
            : `Nothing new to propose in “${scope.name}” (checked in ${formatCount(r.ms)} ms). Memories already under review are not proposed twice.`,
        });
      },
      onError: (e) => onReport({ tone: "danger", text: `The consolidator did not run: ${errorMessage(e)}` }),
    }),
  );
  return (
    <Button variant="secondary" onClick={() => run.mutate({ scopeId: scope.id })} disabled={run.isPending}>
      <Play className="size-4" aria-hidden /> {run.isPending ? "Running…" : "Run consolidator now"}
    </Button>
  );
}
