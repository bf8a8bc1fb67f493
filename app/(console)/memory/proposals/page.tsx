import type { Metadata } from "next";
import { ComingLater } from "@/components/ui/later";

export const metadata: Metadata = { title: "Proposals" };

export default function Page() {
  return (
    <ComingLater title="Proposals" description="The consolidator's proposals to merge, supersede or discard memories.">
      Memory curation arrives in a later release: review and accept or reject the consolidator's proposals.
    </ComingLater>
  );
}
