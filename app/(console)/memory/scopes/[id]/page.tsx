import type { Metadata } from "next";
import { Suspense } from "react";
import { ScopeDetail } from "@/components/memory/scope-detail";
import { LoadingRows } from "@/components/ui/states";

export const metadata: Metadata = { title: "Scope" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense fallback={<LoadingRows label="Loading the scope" />}>
      <ScopeDetail id={id} />
    </Suspense>
  );
}
