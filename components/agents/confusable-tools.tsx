"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { formatCount } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import type { ConfusableView, IdentityView } from "./types";

type Pair = ConfusableView["pairs"][number];

const pct = (x: number) => `${Math.round(x * 100)}%`;

/**
 * The Tools of an identity a model is most likely to mix up: a heat map of the closest
 * ones, then each pair side by side with the words they share and what to do about it.
 * Recomputed only when the holdings change (the query is keyed by holdingsVersion).
 */
export function ConfusableTools({ identity }: { identity: IdentityView }) {
  const trpc = useTRPC();
  const view = useQuery({
    ...trpc.identities.confusable.queryOptions({ id: identity.id }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  // The pairs answer for one version of the holdings (the server caches them by it): ask
  // again only when the page's poll of the identity shows that version moved.
  const { refetch } = view;
  const answered = view.data?.version;
  useEffect(() => {
    if (answered && answered !== identity.holdingsVersion) void refetch();
  }, [answered, identity.holdingsVersion, refetch]);

  return (
    <QueryView query={view} loadingLabel={`Comparing ${formatCount(identity.tools)} Tools`}>
      {(data) => <ConfusablePairs data={data} />}
    </QueryView>
  );
}

function ConfusablePairs({ data }: { data: ConfusableView }) {
  const summary = (
    <p className="text-sm text-muted" data-testid="confusable-summary">
      {formatCount(data.tools)} Tools compared; pairs whose name, description and parameters read at least{" "}
      {pct(data.threshold)} alike are shown, most alike first. A model picks between Tools by these words: two that read
      alike are picked for each other.
    </p>
  );
  if (data.pairs.length === 0)
    return (
      <div className="space-y-4">
        {summary}
        <EmptyState title="No two Tools read alike">
          No pair of this identity&apos;s Tools reads {pct(data.threshold)} alike or more.
        </EmptyState>
      </div>
    );
  return (
    <div className="space-y-6">
      {summary}
      <HeatMap map={data.heatMap} />
      <ol className="space-y-4" aria-label="Confusable pairs">
        {data.pairs.map((pair) => (
          <li key={`${pair.a.id}:${pair.b.id}`}>
            <PairCard pair={pair} />
          </li>
        ))}
      </ol>
    </div>
  );
}

function PairCard({ pair }: { pair: Pair }) {
  return (
    <Card data-testid="confusable-pair" aria-label={`${pair.a.name} and ${pair.b.name}`}>
      <CardHeader
        title={
          <span className="flex flex-wrap items-center gap-2">
            <code className="font-mono">{pair.a.name}</code>
            <span className="text-muted">and</span>
            <code className="font-mono">{pair.b.name}</code>
            <Badge tone={pair.level === "high" ? "danger" : "warn"}>
              {pct(pair.similarity)} alike{pair.level === "high" ? " · likely confused" : ""}
            </Badge>
          </span>
        }
      />
      <div className="grid gap-4 p-4 md:grid-cols-2">
        {[pair.a, pair.b].map((tool) => (
          <div key={tool.id} className="min-w-0" data-testid="confusable-side">
            <p className="text-sm">
              <Link href={`/tools/catalog/${tool.id}`} className="font-mono font-medium text-accent hover:underline">
                {tool.name}
              </Link>{" "}
              <span className="text-muted">· {tool.sourceName}</span>
            </p>
            <p className="mt-1 whitespace-pre-wrap break-words text-sm">
              {tool.description || <span className="text-muted">No description.</span>}
            </p>
          </div>
        ))}
      </div>
      <div className="space-y-2 border-t border-border px-4 py-3 text-sm">
        <p>
          <span className="font-medium">Both say: </span>
          {pair.shared.map((w) => (
            <Badge key={w} className="mr-1">
              {w}
            </Badge>
          ))}
        </p>
        <p data-testid="confusable-fix">
          <span className="font-medium">Suggested fix: </span>
          {pair.fix}
        </p>
      </div>
    </Card>
  );
}

function HeatMap({ map }: { map: ConfusableView["heatMap"] }) {
  if (map.tools.length < 2) return null;
  return (
    <Card>
      <CardHeader
        title="Heat map of the closest Tools"
        description="How alike each two of the Tools in the top pairs read; darker is more alike."
      />
      <div className="overflow-x-auto p-4">
        <table className="border-separate border-spacing-0.5 text-xs" aria-label="Similarity of the closest Tools">
          <thead>
            <tr>
              <th scope="col" />
              {map.tools.map((t, i) => (
                <th key={t.id} scope="col" className="px-1 font-mono font-normal text-muted" title={t.name}>
                  {i + 1}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {map.tools.map((row, r) => (
              <tr key={row.id}>
                <th scope="row" className="max-w-56 truncate pr-2 text-left font-mono font-normal" title={row.name}>
                  {r + 1}. {row.name}
                </th>
                {map.similarity[r]?.map((s, c) => {
                  const col = map.tools[c];
                  const label = r === c ? row.name : `${row.name} and ${col?.name}: ${pct(s)} alike`;
                  return (
                    <td
                      key={col?.id ?? c}
                      title={label}
                      aria-label={label}
                      className="h-7 w-9 rounded-sm text-center tabular-nums"
                      style={{
                        backgroundColor:
                          r === c
                            ? "var(--surface-2)"
                            : `color-mix(in srgb, var(--danger) ${Math.round(s * 100)}%, transparent)`,
                        color: s > 0.55 && r !== c ? "var(--accent-fg)" : undefined,
                      }}
                    >
                      {r === c ? "" : Math.round(s * 100)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
