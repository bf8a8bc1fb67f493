import { Lock } from "lucide-react";
import type { Role } from "@/universal/roles";
import { EmptyState } from "./states";

export function ForbiddenState({ needs, what }: { needs: Role; what: string }) {
  return (
    <EmptyState title={`${what} needs the ${needs} role`} icon={<Lock className="size-8" />}>
      Your role can read most of Quartermaster but not this. Ask an admin if you need it.
    </EmptyState>
  );
}
