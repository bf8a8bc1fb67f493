"use client";

import type { DiffPart, ReviewFlag } from "@/universal/review-diff";
import { FLAG_LABELS } from "@/universal/review-diff";
import { Badge } from "../ui/badge";
import { cn } from "../ui/cn";

/** Text of one side, with what the other side lacks marked (removed on the left, added on the right). */
function Side({
  parts,
  side,
  flagged,
  mono,
}: {
  parts: DiffPart[];
  side: "before" | "after";
  flagged: string[];
  mono?: boolean;
}) {
  const shown = parts.filter((p) => p.op === "same" || (side === "before" ? p.op === "removed" : p.op === "added"));
  const empty = shown.every((p) => !p.text);
  return (
    <div
      className={cn(
        "min-h-10 whitespace-pre-wrap break-words rounded-md border border-border bg-surface-2 p-2 text-sm",
        mono && "font-mono text-xs",
      )}
      data-testid={`diff-${side}`}
    >
      {empty ? (
        <span className="text-muted">{side === "before" ? "(nothing approved)" : "(empty)"}</span>
      ) : (
        shown.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: diff parts have no identity but their place
          <Chunk key={i} part={p} flagged={flagged} />
        ))
      )}
    </div>
  );
}

function Chunk({ part, flagged }: { part: DiffPart; flagged: string[] }) {
  if (part.op === "same") return <span>{part.text}</span>;
  if (part.op === "removed")
    return (
      <del className="rounded-sm bg-danger-soft text-danger decoration-2" title="Removed">
        {part.text}
      </del>
    );
  const hit = flagged.some((f) => part.text.includes(f) || (part.text.trim() && f.includes(part.text.trim())));
  return (
    <ins
      className={cn(
        "rounded-sm bg-ok-soft text-ok no-underline",
        hit && "bg-danger-soft text-danger underline decoration-wavy",
      )}
      title={hit ? "Added — reads like instructions to the model" : "Added"}
      data-flagged={hit || undefined}
    >
      {part.text}
    </ins>
  );
}

export function DiffSection({
  label,
  parts,
  flags,
  mono,
}: {
  label: string;
  parts: DiffPart[];
  flags: ReviewFlag[];
  mono?: boolean;
}) {
  const changed = parts.some((p) => p.op !== "same");
  if (!changed && parts.every((p) => !p.text)) return null;
  const flagged = flags.map((f) => f.text);
  return (
    <section className="space-y-1" aria-label={label}>
      <h3 className="flex items-center gap-2 text-sm font-semibold">
        {label}
        {changed ? <Badge tone="warn">Changed</Badge> : <Badge>Unchanged</Badge>}
      </h3>
      <div className="grid gap-2 md:grid-cols-2">
        <div>
          <p className="mb-1 text-xs text-muted">Approved</p>
          <Side parts={parts} side="before" flagged={flagged} mono={mono} />
        </div>
        <div>
          <p className="mb-1 text-xs text-muted">Published now</p>
          <Side parts={parts} side="after" flagged={flagged} mono={mono} />
        </div>
      </div>
    </section>
  );
}

export function FlagList({ flags }: { flags: ReviewFlag[] }) {
  if (!flags.length) return null;
  return (
    <section aria-label="Flagged additions" className="rounded-md border border-danger/40 bg-danger-soft p-3">
      <h3 className="text-sm font-semibold text-danger">Reads like instructions to the model</h3>
      <ul className="mt-1 space-y-1 text-sm" data-testid="review-flags">
        {flags.map((f, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: flags repeat text; their place is their identity
          <li key={i} className="flex flex-wrap items-baseline gap-2">
            <Badge tone="danger">{FLAG_LABELS[f.kind]}</Badge>
            <span className="text-xs text-muted">{f.field}</span>
            <q className="break-all">{f.text}</q>
          </li>
        ))}
      </ul>
    </section>
  );
}
