import type { Metadata } from "next";
import { Suspense } from "react";
import { ThreadDetail } from "@/components/memory/thread-detail";
import { LoadingRows } from "@/components/ui/states";

export const metadata: Metadata = { title: "Thread" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense fallback={<LoadingRows label="Loading the thread" />}>
      <ThreadDetail id={id} />
    </Suspense>
  );
}
