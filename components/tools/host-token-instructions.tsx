"use client";

import { CopyButton, OneTimeSecret } from "@/components/ui/copy-button";
import { formatSeconds } from "./labels";

function examples(origin: string, token: string, timeoutSeconds: number): string {
  return `export QM_HOST_TOKEN='${token}'

# Publish every Tool of the host (all or nothing, at most 4,096)
curl -X PUT ${origin}/api/v1/tool-hosts/registration \\
  -H "Authorization: Bearer $QM_HOST_TOKEN" \\
  -H "Content-Type: application/json" \\
  -d '{"tools":[{"name":"get_weather","description":"Current weather for a city","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]}'

# Keep the Tools offered: heartbeat well within ${formatSeconds(timeoutSeconds)}
curl -X POST ${origin}/api/v1/tool-hosts/heartbeat \\
  -H "Authorization: Bearer $QM_HOST_TOKEN"`;
}

/** The host token, shown once, and how a host process uses it. */
export function HostTokenInstructions({
  token,
  heartbeatTimeoutSeconds,
}: {
  token: string;
  heartbeatTimeoutSeconds: number;
}) {
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const script = examples(origin, token, heartbeatTimeoutSeconds);
  return (
    <div className="space-y-4">
      <OneTimeSecret value={token} what="host token" />
      <div className="space-y-2">
        <div className="flex items-end justify-between gap-2">
          <h3 className="text-sm font-medium">Register Tools and send heartbeats</h3>
          <CopyButton value={script} label="Copy commands" />
        </div>
        <pre
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keyboard
          tabIndex={0}
          className="max-h-64 overflow-auto rounded-md border border-border bg-surface-2 p-3 font-mono text-xs leading-relaxed"
        >
          {script}
        </pre>
        <p className="text-xs text-muted">
          A registration replaces the host’s whole Tool list. A host silent for longer than{" "}
          {formatSeconds(heartbeatTimeoutSeconds)} has its Tools withdrawn until it speaks again.
        </p>
      </div>
    </div>
  );
}
