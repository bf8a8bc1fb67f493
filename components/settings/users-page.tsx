"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { UserPlus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useCan, useCurrentUser } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";
import { ForbiddenState } from "@/components/ui/forbidden";
import { PageHeader } from "@/components/ui/page-header";
import { QueryView } from "@/components/ui/query-view";
import { TimeCell } from "@/components/ui/relative-time";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";
import { errorMessage } from "@/components/ui/use-error";
import { ROLE_DESCRIPTIONS, ROLES, type Role } from "@/universal/roles";

export function UsersPage() {
  const isAdmin = useCan("admin");
  const me = useCurrentUser();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery({ ...trpc.users.list.queryOptions(), enabled: isAdmin });
  const [adding, setAdding] = useState(false);
  const [resetting, setResetting] = useState<{ id: string; email: string } | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.users.list.queryKey() });
  const update = useMutation(trpc.users.update.mutationOptions({ onSuccess: invalidate }));

  if (!isAdmin)
    return (
      <>
        <PageHeader title="Users" />
        <ForbiddenState needs="admin" what="Managing users" />
      </>
    );

  return (
    <>
      <PageHeader
        title="Users"
        description="People who sign in to the console, and what their role lets them do."
        actions={
          <Button onClick={() => setAdding(true)}>
            <UserPlus className="size-4" aria-hidden /> Add user
          </Button>
        }
      />
      <section aria-labelledby="roles-explained" className="mb-4 rounded-lg border border-border bg-surface px-4 py-3">
        <h2 id="roles-explained" className="mb-2 text-sm font-semibold">
          What each role may do
        </h2>
        <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]" data-testid="roles-explained">
          {ROLES.map((r) => (
            <div key={r} className="contents">
              <dt className="font-medium capitalize">{r}</dt>
              <dd className="text-muted">{ROLE_DESCRIPTIONS[r]}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-2 text-xs text-muted">
          Every role reads everything; a role’s own work comes on top. Agents never sign in here: they use an Agent
          Identity’s token at /mcp.
        </p>
      </section>
      {update.error && (
        <div className="mb-4">
          <ErrorState error={update.error} />
        </div>
      )}
      <QueryView
        query={users}
        loadingLabel="Loading users"
        empty={<EmptyState title="No users yet" action={<Button onClick={() => setAdding(true)}>Add user</Button>} />}
      >
        {(data) => (
          <Table aria-label="Users">
            <thead>
              <tr>
                <Th>Name</Th>
                <Th>Email</Th>
                <Th>Role</Th>
                <Th>Status</Th>
                <Th>Last seen</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {data.map((u) => (
                <tr key={u.id}>
                  <Td className="font-medium">
                    {u.name}
                    {u.id === me.id && <span className="ml-1 text-xs text-muted">(you)</span>}
                  </Td>
                  <Td>{u.email}</Td>
                  <Td>
                    <Select
                      aria-label={`Role of ${u.email}`}
                      value={u.role}
                      className="w-32"
                      disabled={update.isPending}
                      onChange={(e) => update.mutate({ id: u.id, role: e.target.value as Role })}
                    >
                      {ROLES.map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </Select>
                  </Td>
                  <Td>{u.disabledAt ? <Badge tone="danger">Disabled</Badge> : <Badge tone="ok">Active</Badge>}</Td>
                  <TimeCell at={u.lastSeenAt} />
                  <Td className="whitespace-nowrap text-right">
                    <Button size="sm" variant="ghost" onClick={() => setResetting({ id: u.id, email: u.email })}>
                      Reset password
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={update.isPending}
                      onClick={() => update.mutate({ id: u.id, disabled: !u.disabledAt })}
                    >
                      {u.disabledAt ? "Enable" : "Disable"}
                    </Button>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </QueryView>
      <AddUserDialog open={adding} onClose={() => setAdding(false)} onDone={invalidate} />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
    </>
  );
}

function AddUserDialog({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const trpc = useTRPC();
  const create = useMutation(
    trpc.users.create.mutationOptions({
      onSuccess: () => {
        onDone();
        onClose();
      },
    }),
  );
  const [role, setRole] = useState<Role>("viewer");
  const field = (create.error?.data as { details?: { field?: string } } | undefined)?.details?.field;
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    create.mutate({
      email: String(f.get("email")),
      name: String(f.get("name")),
      role,
      password: String(f.get("password")),
    });
  }
  return (
    <Dialog
      open={open}
      onClose={() => {
        create.reset();
        onClose();
      }}
      title="Add user"
      description="They sign in with this email and password; share the password with them privately."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Name" error={field === "name" ? errorMessage(create.error) : null}>
          {(p) => <Input {...p} name="name" required maxLength={100} />}
        </Field>
        <Field label="Email" error={field === "email" ? errorMessage(create.error) : null}>
          {(p) => <Input {...p} name="email" type="email" required />}
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
        <Field
          label="Initial password"
          hint="At least 12 characters."
          error={field === "password" ? errorMessage(create.error) : null}
        >
          {(p) => <Input {...p} name="password" type="password" autoComplete="new-password" required />}
        </Field>
        {create.error && !["name", "email", "password"].includes(field ?? "") && <ErrorState error={create.error} />}
        <DialogActions onCancel={onClose} disabled={create.isPending}>
          {create.isPending ? "Adding…" : "Add user"}
        </DialogActions>
      </form>
    </Dialog>
  );
}

function ResetPasswordDialog({ user, onClose }: { user: { id: string; email: string } | null; onClose: () => void }) {
  const trpc = useTRPC();
  const reset = useMutation(trpc.users.resetPassword.mutationOptions({ onSuccess: onClose }));
  return (
    <Dialog
      open={Boolean(user)}
      onClose={() => {
        reset.reset();
        onClose();
      }}
      title="Reset password"
      description={user ? `Sets a new password for ${user.email} and signs them out everywhere.` : undefined}
    >
      <form
        className="space-y-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (user) reset.mutate({ id: user.id, password: String(new FormData(e.currentTarget).get("password")) });
        }}
      >
        <Field label="New password" hint="At least 12 characters." error={errorMessage(reset.error)}>
          {(p) => <Input {...p} name="password" type="password" autoComplete="new-password" required />}
        </Field>
        <DialogActions onCancel={onClose} disabled={reset.isPending}>
          Set password
        </DialogActions>
      </form>
    </Dialog>
  );
}
