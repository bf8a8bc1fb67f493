"use client";

import { useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { Tabs } from "@/components/ui/tabs";
import { type ClientForm, clientConfigs } from "./client-configs";

/** One tab per MCP client, each with the text to paste and where that client reads it. */
export function ClientConfigTabs({
  endpoint,
  token,
  identityName,
}: {
  endpoint: string;
  token: string;
  identityName: string;
}) {
  const configs = clientConfigs({ endpoint, token, identityName });
  const [form, setForm] = useState<ClientForm>("generic");
  const shown = configs.find((c) => c.form === form) ?? configs[0];
  if (!shown) return null;
  return (
    <Tabs
      label="MCP client"
      items={configs.map((c) => ({ value: c.form, label: c.label }))}
      value={form}
      onChange={setForm}
    >
      <div className="space-y-2" data-testid="client-config">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-muted">{shown.where}</p>
          <CopyButton value={shown.text} label={shown.copyLabel} />
        </div>
        {/* Wrapped rather than scrolled, so the panel (already a Tab stop) reads it all. */}
        <pre className="max-h-72 overflow-y-auto whitespace-pre-wrap break-all rounded-md border border-border bg-surface-2 px-3 py-2 font-mono text-xs">
          {shown.text}
        </pre>
      </div>
    </Tabs>
  );
}
