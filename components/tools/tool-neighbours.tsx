"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { formatCount } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { Table, Td, Th } from "@/components/ui/table";
import type { NeighboursView } from "./types";

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The Tools across the catalog whose name, description and parameters read most like this one's. */
export function ToolNeighbours({ id }: { id: string }) {
  const trpc = useTRPC();
  const view = useQuery(trpc.catalog.neighbours.queryOptions({ id }));
  return (
    <QueryView query={view} loadingRows={3} loadingLabel="Comparing with the catalog">
      {(data) => <Neighbours {...data} />}
    </QueryView>
  );
}

function Neighbours({ neighbours, tools, offered }: NeighboursView) {
  return (
    <div className="space-y-2">
      <p className="text-sm text-muted">
        Compared with the {formatCount(tools)} Tools a model can be offered
        {offered ? "" : " (this one is not offered, so none holds it yet)"}. An identity holding two that read alike
        leaves its model to guess between them.
      </p>
      {neighbours.length === 0 ? (
        <p className="text-sm text-muted">No other Tool shares a word with this one.</p>
      ) : (
        <Table aria-label="Nearest neighbours">
          <thead>
            <tr>
              <Th>Tool</Th>
              <Th>Source</Th>
              <Th>Alike</Th>
              <Th>Both say</Th>
            </tr>
          </thead>
          <tbody>
            {neighbours.map((n) => (
              <tr key={n.tool.id} data-testid="neighbour">
                <Td>
                  <Link href={`/tools/catalog/${n.tool.id}`} className="font-mono text-accent hover:underline">
                    {n.tool.name}
                  </Link>
                </Td>
                <Td>{n.tool.sourceName}</Td>
                <Td className="tabular-nums">
                  {n.level ? (
                    <Badge tone={n.level === "high" ? "danger" : "warn"}>{pct(n.similarity)}</Badge>
                  ) : (
                    pct(n.similarity)
                  )}
                </Td>
                <Td className="text-muted">{n.shared.join(", ")}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}
