import type { Metadata } from "next";
import { Suspense } from "react";
import { ProposalsPage } from "@/components/memory/proposals-page";
import { LoadingRows } from "@/components/ui/states";

export const metadata: Metadata = { title: "Proposals" };

export default function Page() {
  return (
    <Suspense fallback={<LoadingRows label="Loading proposals" />}>
      <ProposalsPage />
    </Suspense>
  );
}
