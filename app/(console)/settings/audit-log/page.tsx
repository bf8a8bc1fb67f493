import type { Metadata } from "next";
import { Suspense } from "react";
import { AuditLogPage } from "@/components/settings/audit-log-page";
import { LoadingRows } from "@/components/ui/states";

export const metadata: Metadata = { title: "Audit log" };

export default function Page() {
  return (
    <Suspense fallback={<LoadingRows label="Loading the audit log" />}>
      <AuditLogPage />
    </Suspense>
  );
}
