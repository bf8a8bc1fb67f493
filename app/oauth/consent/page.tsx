import type { Metadata } from "next";
import { ApprovalPage } from "../approval-page";

export const metadata: Metadata = { title: "Connect an agent" };
export const dynamic = "force-dynamic";

export default async function ConsentPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  return <ApprovalPage query={await searchParams} consent={true} />;
}
