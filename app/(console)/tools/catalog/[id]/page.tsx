import type { Metadata } from "next";
import { ToolDetail } from "@/components/tools/tool-detail";

export const metadata: Metadata = { title: "Tool" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ToolDetail id={id} />;
}
