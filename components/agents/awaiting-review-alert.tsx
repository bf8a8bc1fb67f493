"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/trpc/client";
import { Callout } from "@/components/ui/callout";

const SHOWN = 5;

/** Tools of the identity's Sources that wait for review: it is not offered them yet, and why. */
export function AwaitingReviewAlert({ identityId }: { identityId: string }) {
  const trpc = useTRPC();
  const queue = useQuery(trpc.review.queue.queryOptions({ identityId, limit: SHOWN }));
  const total = queue.data?.total ?? 0;
  if (!total || !queue.data) return null;
  return (
    <Callout
      tone="warn"
      title={`${total} ${total === 1 ? "Tool" : "Tools"} of its Sources ${total === 1 ? "waits" : "wait"} for review`}
      className="mb-6"
      data-testid="identity-awaiting-review"
    >
      <ul className="mt-1 space-y-1">
        {queue.data.items.map((t) => (
          <li key={t.id}>
            <span className="font-mono text-xs">{t.nativeName}</span> ({t.sourceName}): {t.reason}
          </li>
        ))}
      </ul>
      <p className="mt-2">
        <Link href="/tools/review" className="font-medium text-accent hover:underline">
          Open Tools → Review
        </Link>
        {total > SHOWN && ` to see all ${total}`}
      </p>
    </Callout>
  );
}
