"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Facts } from "@/components/ui/facts";
import { Field, Input } from "@/components/ui/field";
import { formatBytes, formatCount } from "@/components/ui/format";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { errorMessage } from "@/components/ui/use-error";
import { toolCount } from "./labels";
import { PinButton } from "./pin-button";
import type { IdentityView } from "./types";

type Exposure = IdentityView["listing"]["exposure"];

const EXPOSURES: readonly { value: Exposure; label: string }[] = [
  { value: "auto", label: "Auto" },
  { value: "selection", label: "Selection" },
  { value: "all", label: "All" },
];

/**
 * What tools/list offers the identity's agents (its exposure) beside what it holds: all, or
 * a selection of pinned then most-used Tools within its listing budget. The rest stay
 * callable through find_tools.
 */
export function ListingCard({ identity }: { identity: IdentityView }) {
  const canWrite = useCan("operator");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = { onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.identities.pathKey() }) };
  const update = useMutation(trpc.identities.update.mutationOptions(refresh));
  const pin = useMutation(trpc.identities.pinTool.mutationOptions(refresh));
  const [name, setName] = useState("");
  const { listing } = identity;
  const listedShare = listing.heldBytes ? Math.min(1, listing.listedBytes / listing.heldBytes) : 1;

  function submitPin(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (name.trim()) pin.mutate({ identityId: identity.id, name: name.trim() }, { onSuccess: () => setName("") });
  }

  return (
    <Card>
      <CardHeader
        title="Listing at /mcp"
        description="What tools/list offers this identity's agents. Under a selection they see the pinned Tools, then their most-used ones, up to the listing budget; find_tools finds every other held Tool and call_tool calls it."
      />
      <div className="space-y-5 p-4">
        <div className="flex flex-wrap items-center gap-3">
          <span className="text-sm font-medium">Exposure</span>
          {canWrite ? (
            <SegmentedControl
              label="Exposure"
              options={EXPOSURES}
              value={listing.exposure}
              onChange={(exposure) => update.mutate({ id: identity.id, exposure })}
            />
          ) : (
            <span className="text-sm">{listing.exposure}</span>
          )}
          <span className="text-sm text-muted" data-testid="listing-mode">
            {listing.mode === "all" ? "Lists every held Tool" : "Lists a selection"}
          </span>
        </div>
        <div
          role="img"
          aria-label={`Listed ${formatCount(listing.listedTools)} of ${formatCount(listing.heldTools)} held Tools`}
          className="h-3 w-full overflow-hidden rounded-full bg-surface-2"
        >
          <div className="h-full bg-accent" style={{ width: `${(listedShare * 100).toFixed(1)}%` }} />
        </div>
        <Facts
          className="lg:grid-cols-3"
          items={[
            {
              label: "Listed",
              value: (
                <span className="tabular-nums" data-testid="listing-listed">
                  {toolCount(listing.listedTools)} · {formatBytes(listing.listedBytes)}
                </span>
              ),
            },
            {
              label: "Held",
              value: (
                <span className="tabular-nums" data-testid="listing-held">
                  {toolCount(listing.heldTools)} · {formatBytes(listing.heldBytes)}
                </span>
              ),
            },
            {
              label: "Listing budget",
              value: (
                <span className="tabular-nums">
                  {formatBytes(listing.budgetBytes)}
                  {listing.budgetBytes === listing.defaultBudgetBytes ? " (default)" : ""}
                </span>
              ),
            },
          ]}
        />
        {update.error && <p className="text-sm text-danger">{errorMessage(update.error)}</p>}
        <div className="space-y-2">
          <h3 className="text-sm font-medium">Pinned ({formatCount(listing.pinned.length)})</h3>
          {listing.pinned.length ? (
            <ul className="space-y-1" data-testid="pinned-tools">
              {listing.pinned.map((tool) => (
                <li key={tool} className="flex items-center gap-2 text-sm">
                  <code>{tool}</code>
                  {canWrite && <PinButton identityId={identity.id} name={tool} pinned label={tool} />}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted">No Tool is pinned: a selection lists the most-used ones.</p>
          )}
          {canWrite && (
            <form onSubmit={submitPin} className="flex items-end gap-2" noValidate>
              <Field label="Pin a held Tool by name" error={pin.error ? errorMessage(pin.error) : null}>
                {(p) => (
                  <Input
                    {...p}
                    name="pin"
                    value={name}
                    maxLength={64}
                    autoComplete="off"
                    onChange={(e) => setName(e.target.value)}
                    className="max-w-xs"
                  />
                )}
              </Field>
              <Button type="submit" disabled={!name.trim() || pin.isPending}>
                Pin
              </Button>
            </form>
          )}
        </div>
      </div>
    </Card>
  );
}
