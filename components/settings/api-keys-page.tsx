"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { OneTimeSecret } from "@/components/ui/copy-button";
import { CredentialStatus, RevokeDialog, useRevoke } from "@/components/ui/credentials";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";
import { ForbiddenState } from "@/components/ui/forbidden";
import { PageHeader } from "@/components/ui/page-header";
import { MOMENT, RelativeTime } from "@/components/ui/relative-time";
import { ACTIONS_HEADER, QueryTable } from "@/components/ui/rows-table";
import { EmptyState } from "@/components/ui/states";
import { errorMessage } from "@/components/ui/use-error";
import { ROLE_DESCRIPTIONS, ROLES, type Role } from "@/universal/roles";

export function ApiKeysPage() {
  const isAdmin = useCan("admin");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery({ ...trpc.apiKeys.list.queryOptions(), enabled: isAdmin });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
  const revoking = useRevoke(useMutation(trpc.apiKeys.revoke.mutationOptions({ onSuccess: invalidate })));
  const [creating, setCreating] = useState(false);

  if (!isAdmin)
    return (
      <>
        <PageHeader title="API keys" />
        <ForbiddenState needs="admin" what="Managing API keys" />
      </>
    );

  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            Keys for scripts and CI. Send one as <code className="font-mono">Authorization: Bearer &lt;key&gt;</code> to
            the same API the console uses; it acts with the role you give it.
          </>
        }
        actions={
          <Button onClick={() => setCreating(true)}>
            <KeyRound className="size-4" aria-hidden /> Create API key
          </Button>
        }
      />
      <QueryTable
        query={keys}
        loadingLabel="Loading API keys"
        empty={
          <EmptyState title="No API keys" action={<Button onClick={() => setCreating(true)}>Create API key</Button>}>
            Create one for each script or pipeline, so each can be revoked on its own.
          </EmptyState>
        }
        label="API keys"
        rowTestId="api-key-row"
        columns={[
          { key: "name", header: "Name", className: "font-medium", cell: (k) => k.name },
          { key: "role", header: "Role", cell: (k) => k.role },
          { key: "key", header: "Key", cell: (k) => <code className="font-mono text-xs">{k.prefix}</code> },
          {
            key: "created",
            header: "Created",
            className: MOMENT,
            cell: (k) => (
              <>
                <RelativeTime at={k.createdAt} />
                {k.createdBy ? ` by ${k.createdBy.email}` : ""}
              </>
            ),
          },
          { key: "used", header: "Last used", className: MOMENT, cell: (k) => <RelativeTime at={k.lastUsedAt} /> },
          { key: "status", header: "Status", cell: (k) => <CredentialStatus revokedAt={k.revokedAt} /> },
          {
            key: "actions",
            header: ACTIONS_HEADER,
            className: "text-right",
            cell: (k) =>
              !k.revokedAt && (
                <Button size="sm" variant="ghost" aria-label={`Revoke ${k.name}`} onClick={() => revoking.ask(k)}>
                  Revoke
                </Button>
              ),
          },
        ]}
      />
      <RevokeDialog {...revoking.dialog} what="API key">
        Requests using it are refused at once. This cannot be undone; create a new key instead.
      </RevokeDialog>
      <CreateKeyDialog open={creating} onClose={() => setCreating(false)} onCreated={invalidate} />
    </>
  );
}

function CreateKeyDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const trpc = useTRPC();
  const [role, setRole] = useState<Role>("operator");
  const create = useMutation(trpc.apiKeys.create.mutationOptions({ onSuccess: onCreated }));
  const close = () => {
    create.reset();
    onClose();
  };
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    create.mutate({ name: String(new FormData(e.currentTarget).get("name")), role });
  }
  return (
    <Dialog open={open} onClose={close} title={create.data ? "API key created" : "Create API key"}>
      {create.data ? (
        <div className="space-y-4">
          <OneTimeSecret value={create.data.key} what="API key" />
          <div className="flex justify-end">
            <Button onClick={close}>Done</Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4" noValidate>
          <Field label="Name" hint="What uses it, e.g. “deploy pipeline”." error={errorMessage(create.error)}>
            {(p) => <Input {...p} name="name" required maxLength={100} />}
          </Field>
          <Field label="Role" hint={ROLE_DESCRIPTIONS[role]}>
            {(p) => (
              <Select {...p} value={role} onChange={(e) => setRole(e.target.value as Role)}>
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <DialogActions onCancel={close} disabled={create.isPending}>
            Create key
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
