"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ShieldAlert, ShieldCheck } from "lucide-react";
import { useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Dialog } from "@/components/ui/dialog";
import { Switch } from "@/components/ui/switch";
import { errorMessage } from "@/components/ui/use-error";

/**
 * Whether MCP Connections may reach link-local and cloud-metadata addresses. Everyone
 * sees the policy (it explains a refused URL); only admins may change it.
 */
export function NetworkPolicyCard() {
  const isAdmin = useCan("admin");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const policy = useQuery(trpc.sources.networkPolicy.queryOptions());
  const [confirming, setConfirming] = useState(false);
  const set = useMutation(
    trpc.sources.setNetworkPolicy.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.sources.networkPolicy.queryKey(), data);
        setConfirming(false);
      },
    }),
  );
  if (!policy.data) return null;
  const allowed = policy.data.allowLinkLocal;
  const Icon = allowed ? ShieldAlert : ShieldCheck;

  return (
    <section
      aria-labelledby="network-policy-title"
      className="mt-8 flex flex-wrap items-start justify-between gap-4 rounded-lg border border-border bg-surface px-4 py-3"
    >
      <div className="flex min-w-0 items-start gap-3">
        <Icon className={allowed ? "mt-0.5 size-5 text-warn" : "mt-0.5 size-5 text-ok"} aria-hidden />
        <div>
          <h2 id="network-policy-title" className="text-sm font-semibold">
            Network policy
          </h2>
          <p className="text-sm" id="network-policy-state">
            Link-local and cloud-metadata addresses:{" "}
            <strong className={allowed ? "text-warn" : "text-ok"}>{allowed ? "allowed" : "refused"}</strong>
          </p>
          <p className="mt-0.5 max-w-2xl text-xs text-muted">
            Connections are requests the server makes on your behalf. Refusing 169.254.0.0/16, fe80::/10 and metadata
            endpoints keeps a Connection from reading the host’s cloud credentials. Loopback and private networks are
            always allowed for Connections; OAuth clients’ metadata documents, which anyone may name, are fetched from
            them only while this is allowed.
            {!isAdmin && " Only an admin can change this."}
          </p>
          {set.error && (
            <p role="alert" className="mt-1 text-xs font-medium text-danger">
              {errorMessage(set.error)}
            </p>
          )}
        </div>
      </div>
      {isAdmin && (
        <div className="flex items-center gap-2">
          <span className="text-sm text-muted" aria-hidden>
            Allow
          </span>
          <Switch
            label="Allow link-local and cloud-metadata addresses"
            describedBy="network-policy-state"
            checked={allowed}
            disabled={set.isPending}
            // Opening the door to metadata endpoints deserves a second look; closing it does not.
            onChange={(next) => (next ? setConfirming(true) : set.mutate({ allowLinkLocal: false }))}
          />
        </div>
      )}
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Allow link-local and cloud-metadata addresses?"
      >
        <div className="space-y-4">
          <Callout tone="warn">
            Any operator could then point a Connection at this server’s cloud metadata service (for example
            169.254.169.254), which hands out the host’s credentials, and an OAuth client’s metadata document, named by
            anyone, could be fetched from loopback, private and link-local addresses. Allow it only where no such
            service exists or it is firewalled off.
          </Callout>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button variant="danger" disabled={set.isPending} onClick={() => set.mutate({ allowLinkLocal: true })}>
              Allow
            </Button>
          </div>
        </div>
      </Dialog>
    </section>
  );
}
