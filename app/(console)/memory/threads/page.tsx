import type { Metadata } from "next";
import { ComingLater } from "@/components/ui/later";

export const metadata: Metadata = { title: "Threads" };

export default function Page() {
  return (
    <ComingLater title="Threads" description="Named, overlapping collections of memories.">
      Memory curation arrives in a later release: threads, pinned members and their index.
    </ComingLater>
  );
}
