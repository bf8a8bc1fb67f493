import type { Metadata } from "next";
import { ComingLater } from "@/components/ui/later";

export const metadata: Metadata = { title: "Agent Identities" };

export default function Page() {
  return (
    <ComingLater title="Agent Identities" description="What each agent may use, within its size budget.">
      Agent Identities, their Source assignments, budgets and agent tokens arrive in a later release.
    </ComingLater>
  );
}
