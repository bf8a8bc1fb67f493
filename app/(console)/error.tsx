"use client";

import { ErrorState } from "@/components/ui/states";

export default function ConsoleError({ error, reset }: { error: Error; reset: () => void }) {
  return <ErrorState error={error} retry={reset} />;
}
