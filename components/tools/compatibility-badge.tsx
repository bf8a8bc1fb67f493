import { Badge } from "@/components/ui/badge";
import { COMPATIBILITY_LABELS, type CompatibilityState } from "@/universal/compatibility";

/**
 * A Tool's model-compatibility state. Anything but Compatible means no model is offered
 * the Tool, hence danger; a withdrawn Tool is offered to no one until its host returns.
 */
export function CompatibilityBadge({
  state,
  reason,
  withdrawn,
}: {
  state: CompatibilityState;
  reason?: string | null;
  withdrawn?: boolean;
}) {
  return (
    <span className="inline-flex flex-wrap gap-1" title={reason ?? undefined}>
      {state === "compatible" && withdrawn ? null : (
        <Badge
          tone={state === "compatible" ? "ok" : state === "awaiting_review" ? "warn" : "danger"}
          className="max-md:whitespace-normal"
        >
          {COMPATIBILITY_LABELS[state] ?? state}
        </Badge>
      )}
      {withdrawn && (
        <Badge tone="warn" className="max-md:whitespace-normal">
          Withdrawn (host silent)
        </Badge>
      )}
    </span>
  );
}
