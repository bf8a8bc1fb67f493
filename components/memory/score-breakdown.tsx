import { cn } from "@/components/ui/cn";
import type { SearchHit } from "./types";

type Signals = SearchHit["signals"];

/** The signals a search fuses, in the order they are shown, with what each means. */
export const SIGNALS: { key: keyof Signals; label: string; hint: string; color: string }[] = [
  {
    key: "fulltext",
    label: "Full-text",
    hint: "query words in the body, rarer words weigh more",
    color: "bg-indigo-500",
  },
  { key: "trigram", label: "Trigram", hint: "spelling similarity to the query", color: "bg-teal-500" },
  { key: "vector", label: "Vector", hint: "meaning, from embeddings (when configured)", color: "bg-amber-500" },
  { key: "context", label: "Context", hint: "written beside a strong hit in the same episode", color: "bg-sky-500" },
  { key: "time", label: "Time", hint: "happened when the query says", color: "bg-rose-500" },
];

const fmt = (n: number) => (n >= 10 ? n.toFixed(1) : n.toFixed(2));

/**
 * A hit's score as one stacked bar, a segment per signal, with the numbers beside it: the
 * bar shows the mix at a glance, the legend (and the bar's accessible name) says exactly.
 */
export function ScoreBreakdown({
  score,
  signals,
  compact = false,
}: {
  score: number;
  signals: Signals;
  /** In a list row: the legend on one line, cut when it does not fit. */
  compact?: boolean;
}) {
  const parts = SIGNALS.map((s) => ({ ...s, value: signals[s.key] })).filter((s) => s.value > 0);
  const sum = parts.reduce((a, p) => a + p.value, 0) || 1;
  const description = parts.map((p) => `${p.label} ${fmt(p.value)}`).join(", ");
  return (
    <div className="flex min-w-0 flex-col items-end gap-1" data-testid="score-breakdown">
      <div className="flex items-center gap-2">
        <span className="text-xs text-muted">Score</span>
        <span className="font-mono text-sm font-semibold tabular-nums" data-testid="score">
          {fmt(score)}
        </span>
        <div
          role="img"
          aria-label={`Score ${fmt(score)}: ${description || "no signal"}`}
          title={parts.map((p) => `${p.label}: ${fmt(p.value)} (${p.hint})`).join("\n")}
          className="flex h-2 w-28 overflow-hidden rounded-full bg-surface-2"
        >
          {parts.map((p) => (
            <span key={p.key} className={p.color} style={{ width: `${(p.value / sum) * 100}%` }} />
          ))}
        </div>
      </div>
      <ul
        className={cn(
          "flex gap-x-3 gap-y-0.5 text-xs text-muted",
          // Cut at the end, not the start: justify-end would push the first signal out of view.
          compact ? "max-w-full flex-nowrap overflow-hidden whitespace-nowrap" : "flex-wrap justify-end",
        )}
        aria-hidden
      >
        {parts.map((p) => (
          <li key={p.key} className="inline-flex items-center gap-1" data-signal={p.key} title={p.hint}>
            <span className={`inline-block size-2 rounded-full ${p.color}`} />
            {p.label} <span className="font-mono tabular-nums text-fg">{fmt(p.value)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What the bar colours stand for, once per result list. */
export function SignalLegend() {
  return (
    <details className="text-xs text-muted">
      <summary className="cursor-pointer select-none">How hits are scored</summary>
      <ul className="mt-2 grid gap-1 sm:grid-cols-2">
        {SIGNALS.map((s) => (
          <li key={s.key} className="flex items-center gap-2">
            <span className={`inline-block size-2 shrink-0 rounded-full ${s.color}`} aria-hidden />
            <span>
              <span className="font-medium text-fg">{s.label}</span>: {s.hint}
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-2">The score is the sum of its signals; each hit shows its own mix.</p>
    </details>
  );
}
