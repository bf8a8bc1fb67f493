"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { Button } from "./button";

export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      size="sm"
      variant="secondary"
      onClick={async () => {
        await navigator.clipboard?.writeText(value).catch(() => {});
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
    >
      {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
      {copied ? "Copied" : label}
    </Button>
  );
}

/** A secret shown exactly once, with the warning that goes with it. */
export function OneTimeSecret({ value, what }: { value: string; what: string }) {
  return (
    <div className="space-y-2" data-testid="one-time-secret">
      <p className="text-sm">
        Copy the {what} now. <strong>It will not be shown again</strong>; only a hash is kept.
      </p>
      <div className="flex items-center gap-2">
        <code
          className="block flex-1 select-all overflow-x-auto whitespace-nowrap rounded-md border border-border bg-surface-2 px-3 py-2 font-mono text-xs"
          data-testid="secret-value"
        >
          {value}
        </code>
        <CopyButton value={value} />
      </div>
    </div>
  );
}
