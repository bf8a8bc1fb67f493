import { CircleCheck, OctagonAlert } from "lucide-react";
import { Badge } from "@/components/ui/badge";

export function IdentityStateBadge({ state }: { state: "ok" | "over_budget" }) {
  return state === "over_budget" ? (
    <Badge tone="danger">
      <OctagonAlert className="size-3.5" aria-hidden /> Over budget
    </Badge>
  ) : (
    <Badge tone="ok">
      <CircleCheck className="size-3.5" aria-hidden /> OK
    </Badge>
  );
}
