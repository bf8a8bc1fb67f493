"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, Input } from "@/components/ui/field";
import { formatDateTime } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { Table, Td, Th } from "@/components/ui/table";
import { errorMessage } from "@/components/ui/use-error";

/** A fingerprint in groups of four, as a person reads it aloud to compare two consoles. */
function grouped(fingerprint: string): string {
  return fingerprint.match(/.{1,4}/g)?.join(" ") ?? fingerprint;
}

/**
 * The key this installation signs scope exports with (its public half, to give to another
 * installation), and the other installations' keys trusted here. Admins add and remove them.
 */
export function SigningKeysCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isAdmin = useCan("admin");
  const keys = useQuery(trpc.signingKeys.list.queryOptions({}));
  const [publicKey, setPublicKey] = useState("");
  const [label, setLabel] = useState("");
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.signingKeys.pathKey() });
  const trust = useMutation(
    trpc.signingKeys.trust.mutationOptions({
      onSuccess: async () => {
        setPublicKey("");
        setLabel("");
        await refresh();
      },
    }),
  );
  const untrust = useMutation(trpc.signingKeys.untrust.mutationOptions({ onSuccess: refresh }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    trust.mutate({ publicKey: publicKey.trim(), label: label.trim() });
  };

  return (
    <Card className="mt-6" data-testid="signing-keys">
      <CardHeader
        title="Signing keys"
        description="Every scope export is signed with this installation's key; an import checks the signature and names any line changed since. To import files from another installation, trust its public key here after comparing the fingerprint with that installation's console."
      />
      <QueryView query={keys} loadingLabel="Loading signing keys">
        {(data) => (
          <div className="space-y-4 p-4">
            <div>
              <h3 className="text-sm font-medium">This installation's public key</h3>
              <p className="mt-1 flex items-center gap-2">
                <code className="break-all font-mono text-xs" data-testid="installation-public-key">
                  {data.installation.publicKey}
                </code>
                <CopyButton value={data.installation.publicKey} label="Copy" />
              </p>
              <p className="mt-1 text-xs text-muted">
                Fingerprint (SHA-256):{" "}
                <code className="font-mono" data-testid="installation-fingerprint">
                  {grouped(data.installation.fingerprint)}
                </code>
              </p>
            </div>
            {data.trusted.length > 0 ? (
              <Table aria-label="Trusted keys">
                <thead>
                  <tr>
                    <Th>Installation</Th>
                    <Th>Fingerprint</Th>
                    <Th>Trusted</Th>
                    {isAdmin && <Th className="sr-only">Actions</Th>}
                  </tr>
                </thead>
                <tbody>
                  {data.trusted.map((k) => (
                    <tr key={k.fingerprint}>
                      <Td>{k.label}</Td>
                      <Td>
                        <code className="font-mono text-xs">{grouped(k.fingerprint).slice(0, 39)}…</code>
                      </Td>
                      <Td className="text-xs text-muted">
                        {formatDateTime(k.addedAt)} by {k.addedBy}
                      </Td>
                      {isAdmin && (
                        <Td className="text-right">
                          <Button
                            variant="ghost"
                            size="sm"
                            disabled={untrust.isPending}
                            onClick={() => untrust.mutate({ fingerprint: k.fingerprint })}
                          >
                            Stop trusting
                          </Button>
                        </Td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </Table>
            ) : (
              <p className="text-sm text-muted">
                No other installation's key is trusted: only this one's files import signed.
              </p>
            )}
            {isAdmin && (
              <form onSubmit={submit} className="grid gap-3 md:grid-cols-[2fr_1fr_auto] md:items-end" noValidate>
                <Field
                  label="Public key to trust"
                  hint="ed25519:… from the other installation's Scopes page."
                  error={trust.error ? errorMessage(trust.error) : null}
                >
                  {(p) => <Input {...p} value={publicKey} onChange={(e) => setPublicKey(e.target.value)} />}
                </Field>
                <Field label="Installation">
                  {(p) => (
                    <Input
                      {...p}
                      value={label}
                      placeholder="e.g. Berlin staging"
                      onChange={(e) => setLabel(e.target.value)}
                    />
                  )}
                </Field>
                <Button type="submit" disabled={!publicKey.trim() || !label.trim() || trust.isPending}>
                  Trust key
                </Button>
              </form>
            )}
          </div>
        )}
      </QueryView>
    </Card>
  );
}
