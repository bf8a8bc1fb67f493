"use client";

import Link from "next/link";
import { formatCount, formatDateTime, formatRelative } from "@/components/ui/format";
import { Table, Td, Th } from "@/components/ui/table";
import { useNow } from "@/components/ui/use-now";
import { KIND_LABELS } from "./labels";
import { CheckingBadge, PausedBadge, SourceStateBadge } from "./source-state-badge";
import type { SourceView } from "./types";

export function SourcesTable({ sources }: { sources: SourceView[] }) {
  const now = useNow();
  return (
    <Table aria-label="Sources">
      <thead>
        <tr>
          <Th>Name</Th>
          <Th>Kind</Th>
          <Th>Catalog state</Th>
          <Th>Last failure</Th>
          <Th className="text-right">Tools</Th>
          <Th>Last check</Th>
        </tr>
      </thead>
      <tbody>
        {sources.map((s) => (
          <tr key={s.id} data-testid="source-row" className="hover:bg-surface-2/60">
            <Td className="min-w-40">
              <Link
                href={`/tools/sources/${s.id}`}
                className="font-medium text-accent hover:underline focus-visible:underline"
              >
                {s.name}
              </Link>
              {s.description && (
                <p className="line-clamp-1 text-xs text-muted" title={s.description}>
                  {s.description}
                </p>
              )}
            </Td>
            <Td className="whitespace-nowrap">{KIND_LABELS[s.kind]}</Td>
            <Td>
              <div className="flex flex-wrap items-center gap-1">
                <SourceStateBadge source={s} />
                {s.paused && <PausedBadge kind={s.kind} />}
                {s.checking && <CheckingBadge />}
              </div>
            </Td>
            {/* max-w-0 lets this column take the leftover width and truncate, instead of widening the table. */}
            <Td className="w-[30%] max-w-0">
              {s.lastFailure ? (
                <p className="truncate text-danger" title={`${s.lastFailure.code}: ${s.lastFailure.message}`}>
                  {s.lastFailure.message}
                </p>
              ) : (
                <span className="text-muted">—</span>
              )}
            </Td>
            <Td className="whitespace-nowrap text-right tabular-nums">
              {formatCount(s.toolCount)}
              {s.toolCount > 0 && (
                <span className="block text-xs text-muted">{formatCount(s.compatibleToolCount)} Compatible</span>
              )}
            </Td>
            <Td
              className="whitespace-nowrap text-muted"
              title={s.lastCheckAt ? formatDateTime(s.lastCheckAt) : undefined}
            >
              {formatRelative(s.lastCheckAt, now)}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
