"use client";

import { AlertTriangle, Check, X } from "lucide-react";
import Link from "next/link";
import { forwardRef } from "react";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { formatDateTime, formatRelative } from "@/components/ui/format";
import { highlightWords } from "./diff";
import { PROPOSAL_KIND_LABELS, PROPOSAL_STATUS_LABELS } from "./labels";
import { HeldBadge, KindBadge, StateBadge } from "./memory-badges";
import type { ProposalItem, ProposalMemory } from "./types";

const KIND_TONES: Record<string, Tone> = { merge: "accent", supersede: "warn", discard: "neutral", admit: "ok" };
const STATUS_TONES: Record<string, Tone> = { pending: "accent", accepted: "ok", rejected: "neutral", stale: "warn" };

/** What each memory of a proposal stands for, in the order the proposal lists them. */
function roles(p: ProposalItem): string[] {
  const evidence = (p.evidence ?? {}) as { keepWordingOf?: string; reason?: string };
  if (p.kind === "merge")
    return p.memoryIds.map((id) => (id === evidence.keepWordingOf ? "Merged · wording kept" : "Merged in"));
  if (p.kind === "supersede") return ["Outdated", "Newer"];
  if (p.kind === "admit") return ["Held for review"];
  if (p.memoryIds.length > 1) return ["Discard · duplicate", "Keep"];
  return ["Discard"];
}

export const ProposalCard = forwardRef<
  HTMLElement,
  {
    proposal: ProposalItem;
    active: boolean;
    selected: boolean;
    canWrite: boolean;
    busy: boolean;
    onActivate: () => void;
    onSelect: (selected: boolean) => void;
    onAccept: () => void;
    onReject: () => void;
  }
>(function ProposalCard(
  { proposal: p, active, selected, canWrite, busy, onActivate, onSelect, onAccept, onReject },
  ref,
) {
  const pending = p.status === "pending";
  const labels = roles(p);
  const words = [p.differences?.onlyInFirst ?? [], p.differences?.onlyInSecond ?? []];
  const headingId = `proposal-${p.id}`;
  return (
    <article
      ref={ref}
      tabIndex={-1}
      aria-labelledby={headingId}
      aria-current={active ? "true" : undefined}
      data-testid="proposal"
      data-kind={p.kind}
      data-status={p.status}
      onPointerDown={onActivate}
      onFocus={onActivate}
      className={cn(
        "rounded-lg border bg-surface p-4 outline-none transition-shadow",
        active ? "border-accent ring-2 ring-accent/40" : "border-border",
      )}
    >
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          {canWrite && pending && (
            <input
              type="checkbox"
              checked={selected}
              onChange={(e) => onSelect(e.target.checked)}
              aria-label={`Select this ${p.kind} proposal`}
              className="size-4 accent-[var(--accent)]"
            />
          )}
          <h2 id={headingId} className="text-sm font-semibold">
            <Badge tone={KIND_TONES[p.kind] ?? "neutral"}>{PROPOSAL_KIND_LABELS[p.kind] ?? p.kind}</Badge>{" "}
            <span className="sr-only">proposal</span>
          </h2>
          <span className="text-xs text-muted" title="How sure the consolidator is, from 0 to 1">
            score <span className="font-mono tabular-nums text-fg">{p.score.toFixed(2)}</span>
          </span>
          {p.stale && (
            <span className="inline-flex" data-testid="stale-badge">
              <Badge tone="warn">
                <AlertTriangle className="size-3" aria-hidden /> Stale
              </Badge>
            </span>
          )}
          {!pending && <Badge tone={STATUS_TONES[p.status] ?? "neutral"}>{PROPOSAL_STATUS_LABELS[p.status]}</Badge>}
          <span className="text-xs text-muted">
            filed{" "}
            <time dateTime={p.filedAt.toISOString()} title={formatDateTime(p.filedAt)}>
              {formatRelative(p.filedAt)}
            </time>
          </span>
        </div>
        {canWrite && pending && (
          <div className="flex gap-2">
            <Button size="sm" onClick={onAccept} disabled={busy}>
              <Check className="size-4" aria-hidden /> {p.stale ? "Dismiss as stale" : "Accept"}
            </Button>
            <Button size="sm" variant="secondary" onClick={onReject} disabled={busy}>
              <X className="size-4" aria-hidden /> Reject…
            </Button>
          </div>
        )}
      </header>
      <p className="mt-2 text-sm">{p.rationale}</p>
      {p.stale && pending && (
        <p className="mt-1 text-xs text-warn">
          Its memories changed since it was filed, so it can no longer be applied. Dismissing it records it as stale;
          the next consolidator pass proposes again whatever still applies.
        </p>
      )}
      <div className={cn("mt-3 grid gap-3", p.memoryIds.length > 1 && "md:grid-cols-2")}>
        {p.memoryIds.map((id, i) => (
          <MemoryColumn
            key={id}
            id={id}
            memory={p.memories[i] ?? null}
            role={labels[i] ?? ""}
            highlight={p.memoryIds.length > 1 ? (words[i] ?? []) : []}
          />
        ))}
      </div>
      {p.memoryIds.length > 1 &&
        p.differences &&
        (words.some((w) => w.length) ? (
          <p className="mt-2 text-xs text-muted">
            <mark className="rounded bg-warn-soft px-1 text-fg">Highlighted</mark> words appear on one side only.
          </p>
        ) : (
          <p className="mt-2 text-xs text-muted">Both sides use the same words.</p>
        ))}
      {!pending && p.decidedAt && (
        <p className="mt-3 border-t border-border pt-3 text-sm text-muted" data-testid="decision">
          {p.status === "stale"
            ? `Found stale when ${p.decidedByLabel ?? "someone"} tried to accept it, ${formatDateTime(p.decidedAt)}: its memories had changed.`
            : `${PROPOSAL_STATUS_LABELS[p.status]} by ${p.decidedByLabel ?? "someone"} on ${formatDateTime(p.decidedAt)}`}
          {p.decisionReason && <>: “{p.decisionReason}”</>}
          {p.resultMemoryId && (
            <>
              {" "}
              ·{" "}
              <Link href={`/memory/memories/${p.resultMemoryId}`} className="text-accent hover:underline">
                {p.kind === "merge"
                  ? "the merged memory"
                  : p.kind === "admit"
                    ? "the admitted memory"
                    : "the memory that stays"}
              </Link>
            </>
          )}
        </p>
      )}
    </article>
  );
});

function MemoryColumn({
  id,
  memory,
  role,
  highlight,
}: {
  id: string;
  memory: ProposalMemory | null;
  role: string;
  highlight: string[];
}) {
  return (
    <section
      className="min-w-0 rounded-md border border-border bg-bg p-3"
      aria-label={role}
      data-testid="proposal-memory"
    >
      <p className="text-xs font-semibold uppercase tracking-wide text-muted">{role}</p>
      {!memory ? (
        <p className="mt-1 text-sm text-muted">Memory {id} no longer exists.</p>
      ) : (
        <>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-muted">
            <KindBadge kind={memory.kind} />
            <StateBadge state={memory.state} />
            <HeldBadge quarantined={memory.quarantined} />
            <Link href={`/memory/memories/${memory.id}`} className="text-accent hover:underline">
              {formatDateTime(memory.occurredAt)}
            </Link>
            <span>{memory.authorLabel}</span>
          </p>
          {memory.body === null ? (
            <p className="mt-2 text-sm text-muted">(erased)</p>
          ) : (
            <p
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keyboard
              tabIndex={0}
              className="mt-2 max-h-64 overflow-y-auto whitespace-pre-wrap break-words text-sm"
              data-testid="proposal-body"
            >
              {highlightWords(memory.body, highlight).map((s, i) =>
                s.changed ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: runs of one body have no identity beyond their place
                  <mark key={i} className="rounded bg-warn-soft px-0.5 text-fg">
                    {s.text}
                  </mark>
                ) : (
                  s.text
                ),
              )}
            </p>
          )}
          {memory.facts.length > 0 && (
            <ul className="mt-2 space-y-0.5 text-xs">
              {memory.facts.map((f) => (
                <li key={`${f.subject}|${f.predicate}|${f.value}|${f.validFrom.toISOString()}`}>
                  <span className="text-muted">
                    {f.subject} {f.predicate}
                  </span>{" "}
                  <span className="font-medium">{f.value}</span>{" "}
                  <span className="text-muted">
                    {f.validUntil ? `until ${formatDateTime(f.validUntil)}` : "(current)"}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
