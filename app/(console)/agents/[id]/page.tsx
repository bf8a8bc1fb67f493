import type { Metadata } from "next";
import { Suspense } from "react";
import { IdentityDetail } from "@/components/agents/identity-detail";
import { LoadingRows } from "@/components/ui/states";

export const metadata: Metadata = { title: "Agent Identity" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense fallback={<LoadingRows label="Loading the Agent Identity" />}>
      <IdentityDetail id={id} />
    </Suspense>
  );
}
