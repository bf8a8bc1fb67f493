"use client";

import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { formatCount, formatDateTime, formatRelative } from "@/components/ui/format";
import { MoreDetails, WIDE_ONLY } from "@/components/ui/more-details";
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
          <Th className={WIDE_ONLY}>Kind</Th>
          <Th>Catalog state</Th>
          <Th className={WIDE_ONLY}>Last failure</Th>
          <Th className={cn("text-right", WIDE_ONLY)}>Tools</Th>
          <Th className={WIDE_ONLY}>Last check</Th>
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
              <MoreDetails
                items={[
                  { label: "Kind", value: KIND_LABELS[s.kind] },
                  ...(s.lastFailure ? [{ label: "Last failure", value: s.lastFailure.message }] : []),
                  {
                    label: "Tools",
                    value: `${formatCount(s.toolCount)} (${formatCount(s.compatibleToolCount)} Compatible)`,
                  },
                  { label: "Last check", value: formatRelative(s.lastCheckAt, now) },
                ]}
              />
            </Td>
            <Td className={cn("whitespace-nowrap", WIDE_ONLY)}>{KIND_LABELS[s.kind]}</Td>
            <Td>
              <div className="flex flex-wrap items-center gap-1">
                <SourceStateBadge source={s} />
                {s.paused && <PausedBadge kind={s.kind} />}
                {s.checking && <CheckingBadge />}
              </div>
            </Td>
            {/* max-w-0 lets this column take the leftover width and truncate, instead of widening the table. */}
            <Td className={cn("w-[30%] max-w-0", WIDE_ONLY)}>
              {s.lastFailure ? (
                <p className="truncate text-danger" title={`${s.lastFailure.code}: ${s.lastFailure.message}`}>
                  {s.lastFailure.message}
                </p>
              ) : (
                <span className="text-muted">—</span>
              )}
            </Td>
            <Td className={cn("whitespace-nowrap text-right tabular-nums", WIDE_ONLY)}>
              {formatCount(s.toolCount)}
              {s.toolCount > 0 && (
                <span className="block text-xs text-muted">{formatCount(s.compatibleToolCount)} Compatible</span>
              )}
            </Td>
            <Td
              className={cn("whitespace-nowrap text-muted", WIDE_ONLY)}
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
