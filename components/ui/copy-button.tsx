"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { Button } from "./button";

/**
 * Copies `value`, then says so for two seconds — or, when the browser refused the
 * clipboard (no permission, not a secure origin), says to select the text instead, rather
 * than confirming a copy that did not happen. The outcome is announced politely too.
 */
export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        onClick={async () => {
          let copied = false;
          try {
            if (navigator.clipboard) {
              await navigator.clipboard.writeText(value);
              copied = true;
            }
          } catch {
            copied = false;
          }
          setState(copied ? "copied" : "failed");
          setTimeout(() => setState("idle"), copied ? 2000 : 4000);
        }}
      >
        {state === "copied" ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
        {state === "copied" ? "Copied" : state === "failed" ? "Not copied: select the text" : label}
      </Button>
      <span role="status" className="sr-only">
        {state === "copied"
          ? "Copied to the clipboard"
          : state === "failed"
            ? "Not copied; select the text and copy it"
            : ""}
      </span>
    </>
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
