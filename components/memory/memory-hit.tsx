"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { formatBytes, formatDateTime, formatRelative } from "@/components/ui/format";
import { useNow } from "@/components/ui/use-now";
import { KindBadge, StateBadge } from "./memory-badges";
import { ScoreBreakdown } from "./score-breakdown";
import type { SearchHit } from "./types";

/**
 * The body without its first line when that line is the title already shown above it:
 * most notes are one line, and would otherwise read twice.
 */
export function bodyBelowTitle(body: string, title: string): string {
  const lines = body.split("\n");
  const first = lines.findIndex((l) => l.trim());
  if (first === -1) return body;
  const line = (lines[first] as string).trim().replace(/^#{1,6}\s+/, "");
  if (line !== title) return body;
  return lines
    .slice(first + 1)
    .join("\n")
    .replace(/^\s*\n/, "");
}

/** One search hit: what it is, when and by whom, its (cut) body, and for a query its score. */
export function MemoryHit({ hit, scored }: { hit: SearchHit; scored: boolean }) {
  const now = useNow();
  const [expanded, setExpanded] = useState(false);
  return (
    <article
      className="rounded-lg border border-border bg-surface p-4"
      data-testid="memory-hit"
      aria-labelledby={`hit-${hit.id}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <h2 id={`hit-${hit.id}`} className="flex flex-wrap items-center gap-2 text-sm font-semibold">
            <KindBadge kind={hit.kind} />
            <Link href={`/memory/memories/${hit.id}`} className="min-w-0 break-words text-accent hover:underline">
              {hit.title || "(untitled)"}
            </Link>
            <StateBadge state={hit.state} />
          </h2>
          <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted">
            <time dateTime={hit.occurredAt.toISOString()} title={`Happened ${formatDateTime(hit.occurredAt)}`}>
              {formatRelative(hit.occurredAt, now)}
            </time>
            <span aria-hidden>·</span>
            <span>{hit.authorLabel}</span>
            {hit.tags.length > 0 && <span aria-hidden>·</span>}
            {hit.tags.map((t) => (
              <Badge key={t} className="font-normal">
                {t}
              </Badge>
            ))}
          </p>
        </div>
        {scored && <ScoreBreakdown score={hit.score} signals={hit.signals} />}
      </div>
      {expanded ? (
        <FullBody id={hit.id} title={hit.title} fallback={hit.body} />
      ) : (
        (bodyBelowTitle(hit.body, hit.title).trim() || hit.truncated) && (
          <p className="mt-2 whitespace-pre-wrap break-words text-sm" data-testid="hit-body">
            {bodyBelowTitle(hit.body, hit.title).trim()}
            {hit.truncated && "…"}
          </p>
        )
      )}
      {hit.truncated && (
        <button
          type="button"
          className="mt-1 text-sm font-medium text-accent hover:underline"
          aria-expanded={expanded}
          onClick={() => setExpanded((e) => !e)}
        >
          {expanded ? "Show less" : `Show more (${formatBytes(hit.bodyBytes)})`}
        </button>
      )}
    </article>
  );
}

/** The whole body, read by id only when asked for: searches return cut bodies. */
function FullBody({ id, title, fallback }: { id: string; title: string; fallback: string }) {
  const trpc = useTRPC();
  const full = useQuery(trpc.memories.getMany.queryOptions({ ids: [id] }));
  const body = full.data?.memories[0]?.body;
  return (
    <p className="mt-2 whitespace-pre-wrap break-words text-sm" data-testid="hit-body" aria-busy={full.isPending}>
      {bodyBelowTitle(body ?? fallback, title).trim()}
      {full.isPending && <span className="text-muted"> … loading the rest</span>}
      {full.isError && <span className="text-danger"> Could not load the rest: {full.error.message}</span>}
    </p>
  );
}
