/**
 * A small time-series chart as plain SVG: no hooks, no browser API, so it renders the
 * same on the server and in the browser, and it draws with the theme's CSS variables, so
 * dark mode needs nothing of its own. See docs/decisions/0052-charts.md for why it is
 * ours and not a charting package.
 *
 * Points at the same height as their neighbours draw a line; a point marked `failed`
 * breaks the line and is drawn as a cross on the axis (a failed check measured nothing
 * the catalog kept). A table with the same numbers sits behind a disclosure for anyone
 * who cannot see the picture.
 */
import { cn } from "../cn";

export interface ChartPoint {
  /** Unique within the chart (a check's id, say). */
  id: string;
  at: Date;
  /** Null for a point that has no value (a failed check). */
  value: number | null;
  failed?: boolean;
  /** What a tooltip and the data table say about the point. */
  note?: string;
}

const W = 640;
const H = 160;
const PAD = { left: 56, right: 12, top: 12, bottom: 24 };

/** Within a day and a half the time tells points apart; beyond it, the date. */
function axisLabel(at: Date, spanMs: number): string {
  return spanMs < 36 * 3_600_000
    ? at.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })
    : at.toLocaleDateString();
}

function niceMax(max: number): number {
  if (max <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * step >= max) return m * step;
  return 10 * step;
}

export function LineChart({
  title,
  points,
  format,
  limit,
  limitLabel,
  className,
  testId,
}: {
  title: string;
  points: ChartPoint[];
  format: (value: number) => string;
  /** A horizontal line (a budget, say) the values are measured against. */
  limit?: number;
  limitLabel?: string;
  className?: string;
  testId?: string;
}) {
  const values = points.flatMap((p) => (p.value === null ? [] : [p.value]));
  const top = niceMax(Math.max(...values, limit ?? 0, 0));
  const times = points.map((p) => p.at.getTime());
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const x = (t: number) =>
    PAD.left + (t1 === t0 ? (W - PAD.left - PAD.right) / 2 : ((t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right));
  const y = (v: number) => PAD.top + (1 - v / top) * (H - PAD.top - PAD.bottom);
  const baseline = y(0);

  // Runs of measured points, broken at each failure.
  const runs: ChartPoint[][] = [];
  let run: ChartPoint[] = [];
  for (const p of points) {
    if (p.value === null || p.failed) {
      if (run.length) runs.push(run);
      run = [];
    } else run.push(p);
  }
  if (run.length) runs.push(run);
  const failures = points.filter((p) => p.failed);
  const last = values.at(-1);
  const summary =
    points.length === 0
      ? `${title}: no data yet`
      : `${title}: ${points.length} points from ${points[0]?.at.toLocaleString()} to ${points.at(-1)?.at.toLocaleString()}${
          last !== undefined ? `, latest ${format(last)}` : ""
        }${failures.length ? `, ${failures.length} failed` : ""}`;

  return (
    <figure className={cn("min-w-0", className)} data-testid={testId}>
      <figcaption className="mb-1 flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <span className="font-medium">{title}</span>
        {last !== undefined && <span className="tabular-nums text-muted">latest {format(last)}</span>}
      </figcaption>
      {points.length === 0 ? (
        <p className="rounded-md border border-dashed border-border px-3 py-6 text-center text-sm text-muted">
          Nothing to chart yet.
        </p>
      ) : (
        <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary} className="h-auto w-full overflow-visible">
          {[0, 0.5, 1].map((f) => (
            <g key={f}>
              <line
                x1={PAD.left}
                x2={W - PAD.right}
                y1={y(top * f)}
                y2={y(top * f)}
                stroke="var(--border)"
                strokeDasharray={f === 0 ? undefined : "3 3"}
              />
              <text x={PAD.left - 6} y={y(top * f) + 4} textAnchor="end" fontSize="11" fill="var(--fg-muted)">
                {format(top * f)}
              </text>
            </g>
          ))}
          {limit !== undefined && (
            <g>
              <line
                x1={PAD.left}
                x2={W - PAD.right}
                y1={y(limit)}
                y2={y(limit)}
                stroke="var(--danger)"
                strokeWidth="1.5"
                strokeDasharray="6 3"
              />
              {limitLabel && (
                <text x={W - PAD.right} y={y(limit) - 4} textAnchor="end" fontSize="11" fill="var(--danger)">
                  {limitLabel}
                </text>
              )}
            </g>
          )}
          {runs.map((r) => (
            <polyline
              key={r[0]?.id}
              fill="none"
              stroke="var(--accent)"
              strokeWidth="2"
              strokeLinejoin="round"
              points={r.map((p) => `${x(p.at.getTime())},${y(p.value ?? 0)}`).join(" ")}
            />
          ))}
          {points.map((p) =>
            p.failed ? (
              <g key={`f${p.id}`} stroke="var(--danger)" strokeWidth="2" data-failed="">
                <title>{p.note ?? "Failed"}</title>
                <line x1={x(p.at.getTime()) - 4} x2={x(p.at.getTime()) + 4} y1={baseline - 4} y2={baseline + 4} />
                <line x1={x(p.at.getTime()) - 4} x2={x(p.at.getTime()) + 4} y1={baseline + 4} y2={baseline - 4} />
              </g>
            ) : p.value === null ? null : (
              <circle key={`p${p.id}`} cx={x(p.at.getTime())} cy={y(p.value)} r="3" fill="var(--accent)">
                <title>{p.note ?? format(p.value)}</title>
              </circle>
            ),
          )}
          <text x={PAD.left} y={H - 6} fontSize="11" fill="var(--fg-muted)">
            {points[0] && axisLabel(points[0].at, t1 - t0)}
          </text>
          <text x={W - PAD.right} y={H - 6} textAnchor="end" fontSize="11" fill="var(--fg-muted)">
            {points.at(-1) && axisLabel((points.at(-1) as ChartPoint).at, t1 - t0)}
          </text>
        </svg>
      )}
      {points.length > 0 && (
        <details className="mt-1 text-xs">
          <summary className="cursor-pointer text-muted hover:text-fg">The numbers</summary>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keyboard */}
          <div className="max-h-48 overflow-y-auto" tabIndex={0}>
            <table className="w-full text-left">
              <thead>
                <tr>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    When
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    Value
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    Note
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...points].reverse().map((p) => (
                  <tr key={p.id} className="border-t border-border">
                    <td className="py-1 pr-3 tabular-nums">{p.at.toLocaleString()}</td>
                    <td className="py-1 pr-3 text-right tabular-nums">{p.value === null ? "—" : format(p.value)}</td>
                    <td className={cn("py-1", p.failed && "text-danger")}>{p.note ?? (p.failed ? "failed" : "")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </figure>
  );
}
