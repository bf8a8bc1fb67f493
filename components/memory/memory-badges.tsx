import { Badge } from "@/components/ui/badge";
import { isKind, KIND_LABELS, KIND_TONES, STATE_HINTS, STATE_LABELS, STATE_TONES } from "./labels";
import type { MemoryState } from "./types";

export function KindBadge({ kind }: { kind: string | null }) {
  if (!kind) return null;
  return <Badge tone={isKind(kind) ? KIND_TONES[kind] : "neutral"}>{isKind(kind) ? KIND_LABELS[kind] : kind}</Badge>;
}

/** A memory's state; current memories show nothing unless asked (`always`). */
export function StateBadge({ state, always = false }: { state: MemoryState; always?: boolean }) {
  if (state === "current" && !always) return null;
  return (
    <span title={STATE_HINTS[state]} className="inline-flex" data-testid="memory-state" data-state={state}>
      <Badge tone={STATE_TONES[state]}>{STATE_LABELS[state]}</Badge>
    </span>
  );
}

/** Screening found instructions aimed at an agent; the reasons show on hover and on the memory's page. */
export function FlaggedBadge({ flagged, reasons }: { flagged: boolean; reasons: string[] }) {
  if (!flagged) return null;
  return (
    <span
      title={`Flagged at write time, kept out of briefings: ${reasons.join("; ")}`}
      className="inline-flex"
      data-testid="memory-flagged"
    >
      <Badge tone="danger">Flagged</Badge>
    </span>
  );
}

/** An agent's write to a scope under review: only its writer and curators see it until admitted. */
export function HeldBadge({ quarantined }: { quarantined: boolean }) {
  if (!quarantined) return null;
  return (
    <span
      title="Held for review: only its writer and curators see it until a curator admits it from the proposals queue."
      className="inline-flex"
      data-testid="memory-held"
    >
      <Badge tone="warn">Held for review</Badge>
    </span>
  );
}
