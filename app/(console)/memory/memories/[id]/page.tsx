import type { Metadata } from "next";
import { Suspense } from "react";
import { MemoryDetail } from "@/components/memory/memory-detail";
import { LoadingRows } from "@/components/ui/states";

export const metadata: Metadata = { title: "Memory" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense fallback={<LoadingRows label="Loading the memory" />}>
      <MemoryDetail id={id} />
    </Suspense>
  );
}
