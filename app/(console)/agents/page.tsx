import type { Metadata } from "next";
import { Suspense } from "react";
import { IdentitiesPage } from "@/components/agents/identities-page";
import { LoadingRows } from "@/components/ui/states";

export const metadata: Metadata = { title: "Agent Identities" };

export default function Page() {
  return (
    <Suspense fallback={<LoadingRows label="Loading Agent Identities" />}>
      <IdentitiesPage />
    </Suspense>
  );
}
