"use client";

import { Plug } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { formatBytes, formatCount, formatDateTime, formatRelative } from "@/components/ui/format";
import { EmptyState } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";
import { useNow } from "@/components/ui/use-now";
import { AssignSourceButton } from "./assign-source";
import { SOURCE_KIND_LABELS } from "./labels";
import type { IdentityView } from "./types";
import { UnassignSourceDialog, type UnassignTarget } from "./unassign-source-dialog";

export function IdentitySources({ identity }: { identity: IdentityView }) {
  const canWrite = useCan("operator");
  const now = useNow();
  const [unassigning, setUnassigning] = useState<UnassignTarget | null>(null);
  const assign = canWrite && <AssignSourceButton identity={identity} />;

  return (
    <Card>
      <CardHeader
        title="Assigned Sources"
        description="The identity holds every Compatible Tool of these Sources, except those of a silent SDK Tool Host."
        actions={assign}
      />
      {identity.sources.length === 0 ? (
        <div className="p-4">
          <EmptyState title="No Sources assigned" icon={<Plug className="size-8" />} action={assign}>
            Assign a Source to give this identity its Tools. You see what it adds to the budget before it is saved.
            {!canWrite && " Assigning needs the operator role."}
          </EmptyState>
        </div>
      ) : (
        <div className="p-4">
          <Table aria-label="Assigned Sources">
            <thead>
              <tr>
                <Th>Source</Th>
                <Th>Kind</Th>
                <Th className="text-right">Tools held</Th>
                <Th className="text-right">Size</Th>
                <Th>Assigned</Th>
                <Th>Status</Th>
                {canWrite && (
                  <Th>
                    <span className="sr-only">Actions</span>
                  </Th>
                )}
              </tr>
            </thead>
            <tbody>
              {identity.sources.map((s) => (
                <tr key={s.sourceId} data-testid="assigned-source-row">
                  <Td>
                    <Link href={`/tools/sources/${s.sourceId}`} className="font-medium text-accent hover:underline">
                      {s.name}
                    </Link>
                  </Td>
                  <Td className="whitespace-nowrap text-muted">{SOURCE_KIND_LABELS[s.kind] ?? s.kind}</Td>
                  <Td className="text-right tabular-nums">
                    {formatCount(s.tools)}
                    {s.catalogTools > s.tools && !s.withdrawn && (
                      <span className="block text-xs text-muted">of {formatCount(s.catalogTools)} in its catalog</span>
                    )}
                  </Td>
                  <Td className="text-right tabular-nums">{formatBytes(s.bytes)}</Td>
                  <Td className="whitespace-nowrap text-muted">
                    <time dateTime={s.assignedAt.toISOString()} title={formatDateTime(s.assignedAt)}>
                      {formatRelative(s.assignedAt, now)}
                    </time>
                  </Td>
                  <Td>
                    <span className="flex flex-wrap gap-1">
                      {s.withdrawn && <Badge tone="warn">Withdrawn: host offline</Badge>}
                      {s.failing && <Badge tone="warn">Catalog check failing</Badge>}
                      {!s.withdrawn && !s.failing && <Badge tone="ok">Held</Badge>}
                    </span>
                  </Td>
                  {canWrite && (
                    <Td className="text-right">
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`Unassign ${s.name}`}
                        onClick={() =>
                          setUnassigning({ sourceId: s.sourceId, name: s.name, tools: s.tools, bytes: s.bytes })
                        }
                      >
                        Unassign
                      </Button>
                    </Td>
                  )}
                </tr>
              ))}
            </tbody>
          </Table>
          {identity.sources.some((s) => s.withdrawn || s.failing) && (
            <p className="mt-3 text-xs text-muted">
              An SDK Tool Host that shut down or went silent has its Tools withdrawn; they count for nothing until it
              sends heartbeats again. A failing catalog check keeps the last good catalog, so its Tools stay held.
            </p>
          )}
        </div>
      )}
      <UnassignSourceDialog identity={identity} source={unassigning} onClose={() => setUnassigning(null)} />
    </Card>
  );
}
