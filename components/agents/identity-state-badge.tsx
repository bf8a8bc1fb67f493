import { CircleCheck, OctagonAlert, TriangleAlert } from "lucide-react";
import { Badge } from "@/components/ui/badge";

/**
 * An identity's state. Within its budget but holding a Source whose checks fail, it is
 * Degraded, with the Source named: that Source's Tools are still offered and their calls
 * fail, so "OK" would mislead whoever is looking for why an agent's calls break.
 */
export function IdentityStateBadge({
  state,
  failingSources = [],
}: {
  state: "ok" | "over_budget";
  /** Names of the held Sources whose catalog checks are failing. */
  failingSources?: string[];
}) {
  if (state === "over_budget")
    return (
      <Badge tone="danger">
        <OctagonAlert className="size-3.5" aria-hidden /> Over budget
      </Badge>
    );
  const [first, ...more] = failingSources;
  if (first)
    return (
      <span
        data-testid="identity-degraded"
        title={`Calls to the Tools of ${failingSources.map((n) => `“${n}”`).join(", ")} fail while ${more.length ? "their" : "its"} catalog checks fail.`}
      >
        <Badge tone="warn" className="max-w-full">
          <TriangleAlert className="size-3.5 shrink-0" aria-hidden />
          <span className="truncate">
            Degraded: {first} failing{more.length ? ` (+${more.length})` : ""}
          </span>
        </Badge>
      </span>
    );
  return (
    <Badge tone="ok">
      <CircleCheck className="size-3.5" aria-hidden /> OK
    </Badge>
  );
}
