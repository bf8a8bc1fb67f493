"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Card, CardHeader } from "@/components/ui/card";
import { OneTimeSecret } from "@/components/ui/copy-button";
import { CredentialStatus, RevokeDialog, useRevoke } from "@/components/ui/credentials";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import { parseError } from "@/components/ui/parse-error";
import { momentColumn } from "@/components/ui/relative-time";
import { ACTIONS_HEADER, QueryTable } from "@/components/ui/rows-table";
import { EmptyState } from "@/components/ui/states";
import { errorMessage } from "@/components/ui/use-error";
import { useNow } from "@/components/ui/use-now";
import { ClientConfigTabs } from "./client-config-tabs";
import { TOKEN_PLACEHOLDER } from "./client-configs";
import type { AgentToken } from "./types";
import { useOrigin } from "./use-origin";

export function AgentTokens({ identity }: { identity: { id: string; name: string } }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canWrite = useCan("operator");
  const now = useNow();
  const origin = useOrigin();
  const tokens = useQuery(trpc.identities.tokens.queryOptions({ id: identity.id }));
  const [creating, setCreating] = useState(false);
  const [configuring, setConfiguring] = useState<AgentToken | null>(null);
  const invalidate = () =>
    queryClient.invalidateQueries({ queryKey: trpc.identities.tokens.queryKey({ id: identity.id }) });
  const revoking = useRevoke<AgentToken>(
    useMutation(trpc.identities.revokeToken.mutationOptions({ onSuccess: invalidate })),
  );

  const create = canWrite && (
    <Button size="sm" onClick={() => setCreating(true)}>
      <KeyRound className="size-4" aria-hidden /> Create token
    </Button>
  );

  return (
    <Card>
      <CardHeader
        title="Agent tokens"
        description={
          <>
            Agents connect to <code className="font-mono">{origin}/mcp</code> with{" "}
            <code className="font-mono">Authorization: Bearer &lt;token&gt;</code> and see this identity’s Tools. Give
            each agent or deployment its own token, so each can be revoked on its own.
          </>
        }
        actions={create}
      />
      <div className="p-4">
        <QueryTable
          query={tokens}
          loadingLabel="Loading agent tokens"
          loadingRows={3}
          empty={
            <EmptyState title="No agent tokens" icon={<KeyRound className="size-8" />} action={create}>
              No agent can connect as {identity.name} until it has a token.
              {!canWrite && " Creating one needs the operator role."}
            </EmptyState>
          }
          label="Agent tokens"
          rowTestId="agent-token-row"
          columns={[
            { key: "name", header: "Name", className: "font-medium", cell: (t) => t.name },
            // The stored prefix ends with its own ellipsis.
            { key: "token", header: "Token", cell: (t) => <code className="font-mono text-xs">{t.prefix}</code> },
            momentColumn<AgentToken>("created", "Created", (r) => r.createdAt, now),
            momentColumn<AgentToken>("used", "Last used", (r) => r.lastUsedAt, now),
            {
              key: "status",
              header: "Status",
              cell: (t) => <CredentialStatus revokedAt={t.revokedAt} now={now} />,
            },
            {
              key: "actions",
              header: ACTIONS_HEADER,
              className: "whitespace-nowrap text-right",
              cell: (t) =>
                !t.revokedAt && (
                  <>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Client configuration for ${t.name}`}
                      onClick={() => setConfiguring(t)}
                    >
                      Client configuration
                    </Button>
                    {canWrite && (
                      <Button size="sm" variant="ghost" aria-label={`Revoke ${t.name}`} onClick={() => revoking.ask(t)}>
                        Revoke
                      </Button>
                    )}
                  </>
                ),
            },
          ]}
        />
      </div>
      {creating && (
        <CreateTokenDialog
          identity={identity}
          origin={origin}
          onCreated={invalidate}
          onClose={() => setCreating(false)}
        />
      )}
      {configuring && (
        <Dialog open wide onClose={() => setConfiguring(null)} title={`Connect a client with “${configuring.name}”`}>
          <div className="space-y-4">
            <p className="text-sm" data-testid="token-placeholder-note">
              A token’s secret is shown only once, when it is created. Paste the one you kept for “{configuring.name}”
              (it starts <code className="font-mono">{configuring.prefix}</code>) in place of{" "}
              <code className="font-mono">{TOKEN_PLACEHOLDER}</code>; lost it? Create a new token and revoke this one.
            </p>
            <ClientConfigTabs endpoint={`${origin}/mcp`} token={TOKEN_PLACEHOLDER} identityName={identity.name} />
            <div className="flex justify-end">
              <Button onClick={() => setConfiguring(null)}>Done</Button>
            </div>
          </div>
        </Dialog>
      )}
      <RevokeDialog {...revoking.dialog} what="token">
        Agents using it are refused on their next request. This cannot be undone; create a new token instead.
      </RevokeDialog>
    </Card>
  );
}

function CreateTokenDialog({
  identity,
  origin,
  onCreated,
  onClose,
}: {
  identity: { id: string; name: string };
  origin: string;
  onCreated: () => void;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const create = useMutation(trpc.identities.createToken.mutationOptions({ onSuccess: onCreated }));
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    create.mutate({ identityId: identity.id, name: String(new FormData(e.currentTarget).get("name") ?? "") });
  }
  const value = create.data?.value;
  const endpoint = `${origin}/mcp`;

  return (
    <Dialog
      open
      onClose={onClose}
      wide={Boolean(value)}
      title={value ? "Agent token created" : `New agent token for ${identity.name}`}
    >
      {value ? (
        <div className="space-y-4">
          {/* Wrapped, not scrolled: a scrolling box would need its own Tab stop to be read by keyboard. */}
          <div className="[&_code]:whitespace-normal [&_code]:break-all">
            <OneTimeSecret value={value} what="agent token" />
          </div>
          <p className="text-sm">
            Point the agent’s MCP client at <code className="font-mono">{endpoint}</code> (Streamable HTTP) with the
            header <code className="font-mono">Authorization: Bearer &lt;token&gt;</code>. Ready to paste:
          </p>
          <ClientConfigTabs endpoint={endpoint} token={value} identityName={identity.name} />
          <div className="flex justify-end">
            <Button onClick={onClose}>Done</Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4" noValidate>
          <Field
            label="Name"
            hint="What uses it, e.g. “triage bot in production”."
            error={parseError(create.error)?.field === "name" ? errorMessage(create.error) : null}
          >
            {(p) => <Input {...p} name="name" required maxLength={100} autoComplete="off" />}
          </Field>
          {create.error && parseError(create.error)?.field !== "name" && (
            <Callout tone="danger" role="alert" title="Not created">
              {errorMessage(create.error)}
            </Callout>
          )}
          <DialogActions onCancel={onClose} disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create token"}
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
