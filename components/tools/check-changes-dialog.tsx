"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/trpc/client";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorState, LoadingRows } from "@/components/ui/states";

const KIND: Record<string, { label: string; tone: Tone }> = {
  added: { label: "Added", tone: "ok" },
  removed: { label: "Removed", tone: "danger" },
  changed: { label: "Changed", tone: "warn" },
  became_incompatible: { label: "Became incompatible", tone: "danger" },
  became_compatible: { label: "Became compatible", tone: "ok" },
};

/** The Tools one check (or registration) added, removed or changed. */
export function CheckChangesDialog({ checkId, onClose }: { checkId: string | null; onClose: () => void }) {
  const trpc = useTRPC();
  const changes = useInfiniteQuery({
    ...trpc.sources.checkChanges.infiniteQueryOptions(
      { checkId: checkId ?? "", limit: 200 },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
    enabled: Boolean(checkId),
  });
  const rows = changes.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Dialog open={Boolean(checkId)} onClose={onClose} title="What this check changed">
      {changes.isPending ? (
        <LoadingRows rows={4} label="Loading changes" />
      ) : changes.isError ? (
        <ErrorState error={changes.error} retry={() => changes.refetch()} />
      ) : (
        <div className="max-h-96 overflow-y-auto">
          <ul className="divide-y divide-border text-sm" data-testid="check-changes">
            {rows.map((c) => (
              <li key={c.id} className="flex items-center justify-between gap-3 py-1.5">
                <span className="min-w-0 truncate font-mono text-xs" title={c.nativeName}>
                  {c.nativeName}
                </span>
                <Badge tone={KIND[c.kind]?.tone ?? "neutral"}>{KIND[c.kind]?.label ?? c.kind}</Badge>
              </li>
            ))}
          </ul>
          {changes.hasNextPage && (
            <div className="mt-3 flex justify-center">
              <Button
                size="sm"
                variant="secondary"
                onClick={() => changes.fetchNextPage()}
                disabled={changes.isFetchingNextPage}
              >
                Load more
              </Button>
            </div>
          )}
          <p className="mt-3 text-xs text-muted">
            Identities holding this Source show these as gains or losses under{" "}
            <Link href="/agents" className="underline">
              Agents
            </Link>
            .
          </p>
        </div>
      )}
    </Dialog>
  );
}
