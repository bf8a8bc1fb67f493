import type { Tone } from "@/components/ui/badge";
import type { MemoryState } from "./types";

/** Memory kinds in the order the console lists them (the spec's order). */
export const MEMORY_KINDS = ["note", "decision", "fact", "handoff", "briefing", "debrief"] as const;
export type Kind = (typeof MEMORY_KINDS)[number];

export const KIND_LABELS: Record<Kind, string> = {
  note: "Note",
  decision: "Decision",
  fact: "Fact",
  handoff: "Handoff",
  briefing: "Briefing",
  debrief: "Debrief",
};

export const KIND_TONES: Record<Kind, Tone> = {
  note: "neutral",
  decision: "accent",
  fact: "ok",
  handoff: "warn",
  briefing: "neutral",
  debrief: "neutral",
};

export const STATE_LABELS: Record<MemoryState, string> = {
  current: "Current",
  superseded: "Superseded",
  discarded: "Discarded",
  erased: "Erased",
};

export const STATE_TONES: Record<MemoryState, Tone> = {
  current: "ok",
  superseded: "warn",
  discarded: "neutral",
  erased: "danger",
};

export const STATE_HINTS: Record<MemoryState, string> = {
  current: "Found by searches.",
  superseded: "A newer memory replaced it; it stays readable by id but leaves searches.",
  discarded: "A curator discarded it; it stays readable by id but leaves searches.",
  erased: "Its body was erased everywhere; only this tombstone remains.",
};

export function isKind(value: string): value is Kind {
  return (MEMORY_KINDS as readonly string[]).includes(value);
}

export const PROPOSAL_KIND_LABELS: Record<string, string> = {
  merge: "Merge",
  supersede: "Supersede",
  discard: "Discard",
  admit: "Admit",
};

export const PROPOSAL_STATUS_LABELS: Record<string, string> = {
  pending: "Pending",
  accepted: "Accepted",
  rejected: "Rejected",
  stale: "Stale",
};

/** A comma-separated URL value as a list, and back. */
export function listParam(value: string): string[] {
  return value
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
}
export function joinParam(values: readonly string[]): string | null {
  return values.length ? values.join(",") : null;
}
