import type { Metadata } from "next";
import { Suspense } from "react";
import { ThreadsPage } from "@/components/memory/threads-page";
import { LoadingRows } from "@/components/ui/states";

export const metadata: Metadata = { title: "Threads" };

export default function Page() {
  return (
    <Suspense fallback={<LoadingRows label="Loading threads" />}>
      <ThreadsPage />
    </Suspense>
  );
}
