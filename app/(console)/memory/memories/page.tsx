import type { Metadata } from "next";
import { Suspense } from "react";
import { MemoriesPage } from "@/components/memory/memories-page";
import { LoadingRows } from "@/components/ui/states";

export const metadata: Metadata = { title: "Memories" };

export default function Page() {
  return (
    <Suspense fallback={<LoadingRows label="Loading memories" />}>
      <MemoriesPage />
    </Suspense>
  );
}
