import { cn } from "@/components/ui/cn";
import { formatBytes } from "@/components/ui/format";
import { budgetText } from "./labels";
import type { Budget } from "./types";

// Added bytes are hatched so a projected bar reads as "this much more" next to what is held.
const HATCH_ACCENT = "bg-[repeating-linear-gradient(135deg,var(--accent)_0_4px,transparent_4px_7px)]";
const HATCH_DANGER = "bg-[repeating-linear-gradient(135deg,var(--danger)_0_4px,transparent_4px_7px)]";

/**
 * An Agent Identity's budget as a stacked bar: Tool definitions, instructions and (for a
 * preview) the bytes an assignment would add. Past the limit the bar is scaled to what is
 * used, turns danger-coloured and marks where the limit sits, so "how far over" is visible.
 * The meter carries the same words as the visible text for screen readers.
 */
export function BudgetBar({
  budget,
  addsBytes = 0,
  size = "md",
  label = "Budget used",
  legend = false,
  className,
}: {
  budget: Budget;
  /** Bytes of `budget.toolsBytes` an assignment would add (shown hatched). */
  addsBytes?: number;
  size?: "sm" | "md" | "lg";
  label?: string;
  legend?: boolean;
  className?: string;
}) {
  const over = budget.overByBytes > 0;
  const scale = Math.max(budget.limitBytes, budget.usedBytes, 1);
  const pct = (bytes: number) => `${Math.min(100, (bytes / scale) * 100)}%`;
  const heldTools = Math.max(0, budget.toolsBytes - addsBytes);
  const text = budgetText(budget);
  const valueText = over ? `${text}, over budget by ${formatBytes(budget.overByBytes)}` : text;

  return (
    <div className={cn("min-w-0", className)}>
      {size !== "sm" && (
        <div className="mb-1.5 flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
          <span className={cn("tabular-nums", size === "lg" && "text-base font-semibold")}>{text}</span>
          {over ? (
            <span className="font-semibold text-danger">Over budget by {formatBytes(budget.overByBytes)}</span>
          ) : (
            <span className="text-muted">{formatBytes(budget.freeBytes)} free</span>
          )}
        </div>
      )}
      {/* biome-ignore lint/a11y/useSemanticElements: a native meter draws one value; this bar stacks Tools, instructions and additions */}
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={budget.limitBytes}
        // A meter's value must lie within its range; the text says how far over it is.
        aria-valuenow={Math.min(budget.usedBytes, budget.limitBytes)}
        aria-valuetext={valueText}
        className={cn(
          "relative flex w-full overflow-hidden rounded-full border bg-surface-2",
          over ? "border-danger" : "border-border",
          size === "sm" ? "h-2" : size === "md" ? "h-3" : "h-5",
        )}
      >
        {/* Any use at all keeps a few pixels: 1 % of a small bar would otherwise vanish. */}
        <div
          className={cn(over ? "bg-danger" : "bg-accent", heldTools > 0 && "min-w-1")}
          style={{ width: pct(heldTools) }}
        />
        <div
          className={cn(over ? "bg-danger/50" : "bg-muted", budget.instructionsBytes > 0 && "min-w-1")}
          style={{ width: pct(budget.instructionsBytes) }}
        />
        {addsBytes > 0 && <div className={over ? HATCH_DANGER : HATCH_ACCENT} style={{ width: pct(addsBytes) }} />}
        {over && (
          <div
            className="absolute inset-y-0 w-1 border-x border-surface bg-fg"
            style={{ left: `calc(${pct(budget.limitBytes)} - 2px)` }}
            title={`Limit: ${formatBytes(budget.limitBytes)}`}
          />
        )}
      </div>
      {size === "sm" && (
        <p className={cn("mt-1 text-xs tabular-nums", over ? "font-medium text-danger" : "text-muted")}>
          {over ? `Over budget by ${formatBytes(budget.overByBytes)}` : text}
        </p>
      )}
      {legend && (
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
          <LegendItem swatch={over ? "bg-danger" : "bg-accent"} label="Tool definitions" bytes={heldTools} />
          <LegendItem
            swatch={over ? "bg-danger/50" : "bg-muted"}
            label="Instructions"
            bytes={budget.instructionsBytes}
          />
          {addsBytes > 0 && (
            <LegendItem swatch={over ? HATCH_DANGER : HATCH_ACCENT} label="This Source" bytes={addsBytes} />
          )}
          {!over && <LegendItem swatch="border border-border bg-surface-2" label="Free" bytes={budget.freeBytes} />}
        </ul>
      )}
    </div>
  );
}

function LegendItem({ swatch, label, bytes }: { swatch: string; label: string; bytes: number }) {
  return (
    <li className="inline-flex items-center gap-1.5">
      <span className={cn("inline-block size-3 rounded-sm", swatch)} aria-hidden />
      {label} <span className="tabular-nums text-fg">{formatBytes(bytes)}</span>
    </li>
  );
}
