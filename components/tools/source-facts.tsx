"use client";

import { Badge } from "@/components/ui/badge";
import { Facts } from "@/components/ui/facts";
import { formatBytes, formatCount, formatDateTime, formatRelative } from "@/components/ui/format";
import { useNow } from "@/components/ui/use-now";
import { formatSeconds, intervalLabel } from "./labels";
import type { SourceView } from "./types";

function When({ at, now, empty = "never" }: { at: Date | null; now: number; empty?: string }) {
  if (!at) return <span className="text-muted">{empty}</span>;
  return (
    <time dateTime={at.toISOString()} title={formatDateTime(at)}>
      {formatRelative(at, now)}
    </time>
  );
}

export function SourceFacts({ source }: { source: SourceView }) {
  const now = useNow();
  const isConnection = source.kind === "mcp_connection";
  const nextCheck = source.checking ? (
    "running now"
  ) : source.paused ? (
    <span className="text-muted">paused</span>
  ) : (
    <When at={source.nextCheckAt} now={now} empty="not scheduled" />
  );

  return (
    <Facts
      items={[
        isConnection && {
          label: "URL",
          value: <code className="break-all font-mono text-xs">{source.url}</code>,
        },
        isConnection && {
          label: "Auth headers",
          value: source.headerNames.length ? (
            <span className="flex flex-wrap gap-1">
              {source.headerNames.map((h) => (
                <Badge key={h} className="font-mono">
                  {h}
                </Badge>
              ))}
              <span className="sr-only">(values are never shown)</span>
            </span>
          ) : (
            <span className="text-muted">none</span>
          ),
        },
        isConnection && {
          label: "MCP revision",
          value: source.protocolVersion ? (
            <span title="The protocol revision the server spoke at the last check or call">
              {source.protocolVersion}
            </span>
          ) : (
            <span className="text-muted">not known yet</span>
          ),
        },
        isConnection && {
          label: "Check interval",
          value: intervalLabel(source.checkIntervalSeconds),
        },
        isConnection && { label: "Next check", value: nextCheck },
        !isConnection && {
          label: "Host token",
          value: source.hostTokenPrefix ? (
            <code className="font-mono text-xs">{source.hostTokenPrefix}</code>
          ) : (
            <span className="text-muted">none</span>
          ),
        },
        !isConnection && {
          label: "Host software",
          value: source.hostSoftware ? (
            <span title="What the host said it runs when it last registered">{source.hostSoftware}</span>
          ) : (
            <span className="text-muted">not said</span>
          ),
        },
        !isConnection && {
          label: "Heartbeat timeout",
          value: source.heartbeatTimeoutSeconds ? formatSeconds(source.heartbeatTimeoutSeconds) : "—",
        },
        !isConnection && { label: "Last heartbeat", value: <When at={source.lastHeartbeatAt} now={now} /> },
        !isConnection && {
          label: "Silent since",
          value: <When at={source.hostSilentSince} now={now} empty="not silent" />,
        },
        { label: isConnection ? "Last check" : "Last registration", value: <When at={source.lastCheckAt} now={now} /> },
        { label: "Last success", value: <When at={source.lastSuccessAt} now={now} /> },
        {
          label: "Tools",
          value: (
            <>
              {formatCount(source.toolCount)}{" "}
              <span className="text-muted">({formatCount(source.compatibleToolCount)} Compatible)</span>
            </>
          ),
        },
        {
          label: "Definition size",
          value: (
            <span title={`${formatCount(source.definitionBytes)} bytes as published`}>
              {formatBytes(source.definitionBytes)}
            </span>
          ),
        },
        {
          label: "Model-facing size",
          value: (
            <span title="What the Compatible Tools cost in an Agent Identity's budget">
              {formatBytes(source.modelFacingBytes)}
            </span>
          ),
        },
        { label: "Added", value: <When at={source.createdAt} now={now} /> },
      ]}
    />
  );
}
