import type { Metadata } from "next";
import { ComingLater } from "@/components/ui/later";

export const metadata: Metadata = { title: "Memories" };

export default function Page() {
  return (
    <ComingLater title="Memories" description="Agent memories by scope.">
      Memory curation arrives in a later release: browse memories by scope, with their history.
    </ComingLater>
  );
}
