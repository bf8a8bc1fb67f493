import type { Metadata } from "next";
import { Suspense } from "react";
import { SourcesPage } from "@/components/tools/sources-page";
import { LoadingRows } from "@/components/ui/states";

export const metadata: Metadata = { title: "Sources" };

export default function Page() {
  return (
    <Suspense fallback={<LoadingRows label="Loading Sources" />}>
      <SourcesPage />
    </Suspense>
  );
}
