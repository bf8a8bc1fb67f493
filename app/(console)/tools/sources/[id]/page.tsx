import type { Metadata } from "next";
import { SourceDetail } from "@/components/tools/source-detail";

export const metadata: Metadata = { title: "Source" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <SourceDetail id={id} />;
}
