import type { Metadata } from "next";
import { Suspense } from "react";
import { ScopesPage } from "@/components/memory/scopes-page";
import { LoadingRows } from "@/components/ui/states";

export const metadata: Metadata = { title: "Scopes" };

export default function Page() {
  return (
    <Suspense fallback={<LoadingRows label="Loading scopes" />}>
      <ScopesPage />
    </Suspense>
  );
}
