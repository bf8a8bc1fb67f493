"use client";

import { useMemo } from "react";
import { CallStats } from "./call-stats";
import { CallsTable } from "./calls-table";
import { CaptureCard } from "./capture-card";
import { RateLimitCard } from "./rate-limit-card";

/** An identity's Calls tab: its numbers, its limits, payload capture and its recent calls. */
export function IdentityCalls({ identityId }: { identityId: string }) {
  const filters = useMemo(() => ({ identityId }), [identityId]);
  const hide = useMemo(() => ({ identity: true }), []);
  return (
    <div className="space-y-4">
      <CallStats subject="identity" id={identityId} />
      <div className="grid gap-4 lg:grid-cols-2">
        <RateLimitCard subjectType="identity" subjectId={identityId} />
        <CaptureCard identityId={identityId} />
      </div>
      <section aria-label="Recent calls">
        <h3 className="mb-1 text-sm font-semibold">Recent calls</h3>
        <CallsTable filters={filters} narrowed={false} hide={hide} fitRows={12} />
      </section>
    </div>
  );
}
