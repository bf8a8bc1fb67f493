"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Eye, Trash2 } from "lucide-react";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Card, CardHeader } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import { formatCount, formatDateTime } from "@/components/ui/format";
import { ACTIONS_HEADER, QueryTable } from "@/components/ui/rows-table";
import { errorMessage } from "@/components/ui/use-error";
import { KIND_LABELS, type Kind, MEMORY_KINDS } from "./labels";
import type { ScopeItem } from "./types";

/** Who sees an agent's write at once: the scope's agentWrites setting (decision 0090). */
export function AgentWritesCard({ scope }: { scope: ScopeItem }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canWrite = useCan("curator");
  const [value, setValue] = useState<"direct" | "review">(scope.agentWrites);
  const save = useMutation(
    trpc.scopes.update.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.scopes.pathKey() }),
    }),
  );
  return (
    <Card>
      <CardHeader
        title="Agents' writes"
        description="Direct: what an agent remembers is seen at once by every identity that reads the scope. Review: it is held — seen by its writer and curators only — until a curator admits it from the proposals queue."
      />
      <form
        className="flex flex-wrap items-end gap-3 p-4"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          save.mutate({ scopeId: scope.id, agentWrites: value });
        }}
      >
        <Field label="Agents' writes">
          {(p) => (
            <Select
              {...p}
              value={value}
              disabled={!canWrite}
              onChange={(e) => setValue(e.target.value as "direct" | "review")}
              data-testid="agent-writes"
            >
              <option value="direct">Direct: seen at once</option>
              <option value="review">Review: held until a curator admits them</option>
            </Select>
          )}
        </Field>
        {canWrite && (
          <Button type="submit" variant="secondary" disabled={save.isPending || value === scope.agentWrites}>
            {save.isPending ? "Saving…" : "Save"}
          </Button>
        )}
        <span role="status" className="text-sm text-muted">
          {save.isSuccess && !save.isPending && "Saved."}
          {save.error && <span className="text-danger">{errorMessage(save.error)}</span>}
        </span>
      </form>
      {scope.agentWrites === "review" && (
        <p className="px-4 pb-4 text-sm text-muted">
          Held writes wait as{" "}
          <Link
            href={`/memory/proposals?scope=${encodeURIComponent(scope.id)}&kind=admit`}
            className="text-accent underline"
          >
            admit proposals
          </Link>
          . Rejecting one discards the memory, unseen by anyone but its writer and curators.
        </p>
      )}
    </Card>
  );
}

type Preview = {
  kind: string;
  days: number;
  total: number;
  listed: number;
  pinnedKept: number;
  digest: string;
  cutoff: Date;
  items: { id: string; title: string; recordedAt: Date; authorLabel: string }[];
};

/** Retention rules: previewed (exactly what would be erased now) before a curator saves one. */
export function RetentionCard({ scope }: { scope: ScopeItem }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canWrite = useCan("curator");
  const rules = useQuery(trpc.retention.list.queryOptions({ scopeId: scope.id }));
  const [kind, setKind] = useState<Kind>("handoff");
  const [days, setDays] = useState("90");
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.retention.pathKey() });
  const save = useMutation(
    trpc.retention.save.mutationOptions({
      onSuccess: async () => {
        setPreview(null);
        await invalidate();
      },
    }),
  );
  const remove = useMutation(trpc.retention.delete.mutationOptions({ onSuccess: invalidate }));

  async function runPreview(e: FormEvent) {
    e.preventDefault();
    setPreviewing(true);
    setPreviewError(null);
    save.reset();
    try {
      const input = { scopeId: scope.id, kind, days: Number(days) };
      setPreview(await queryClient.fetchQuery({ ...trpc.retention.preview.queryOptions(input), staleTime: 0 }));
    } catch (error) {
      setPreview(null);
      setPreviewError(errorMessage(error));
    } finally {
      setPreviewing(false);
    }
  }

  return (
    <Card>
      <CardHeader
        title="Retention"
        description="Memories of a kind are erased once older than the rule's days (counted from when they were stored), by the memory scheduler, each erasure in the audit log. Pinned memories are never erased."
      />
      <div className="space-y-4 p-4">
        <QueryTable
          query={rules}
          loadingRows={1}
          loadingLabel="Loading retention rules"
          empty={<p className="text-sm text-muted">No retention rule: memories are kept until someone erases them.</p>}
          label="Retention rules"
          rowTestId="retention-rule"
          columns={[
            { key: "kind", header: "Kind", cell: (r) => KIND_LABELS[r.kind as Kind] ?? r.kind },
            { key: "days", header: "Kept for", cell: (r) => `${formatCount(r.days)} days` },
            { key: "by", header: "Set by", cell: (r) => r.createdBy },
            {
              key: "applied",
              header: "Last applied",
              cell: (r) => (r.lastRunAt ? formatDateTime(r.lastRunAt) : "Not yet"),
            },
            canWrite && {
              key: "actions",
              header: ACTIONS_HEADER,
              className: "text-right",
              cell: (r) => (
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={remove.isPending}
                  onClick={() => remove.mutate({ scopeId: scope.id, kind: r.kind })}
                >
                  <Trash2 className="size-4" aria-hidden /> Remove rule
                </Button>
              ),
            },
          ]}
        />
        {canWrite && (
          <form className="flex flex-wrap items-end gap-3" onSubmit={runPreview}>
            <Field label="Kind">
              {(p) => (
                <Select
                  {...p}
                  value={kind}
                  onChange={(e) => {
                    setKind(e.target.value as Kind);
                    setPreview(null);
                  }}
                >
                  {MEMORY_KINDS.map((k) => (
                    <option key={k} value={k}>
                      {KIND_LABELS[k]}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Keep for (days)" error={previewError}>
              {(p) => (
                <Input
                  {...p}
                  type="number"
                  min={1}
                  inputMode="numeric"
                  value={days}
                  className="w-28"
                  onChange={(e) => {
                    setDays(e.target.value);
                    setPreview(null);
                  }}
                />
              )}
            </Field>
            <Button type="submit" variant="secondary" disabled={previewing}>
              <Eye className="size-4" aria-hidden /> {previewing ? "Previewing…" : "Preview"}
            </Button>
          </form>
        )}
        {preview && (
          <section aria-label="Retention preview" className="space-y-3" data-testid="retention-preview">
            <Callout tone={preview.total ? "warn" : "info"} title={previewTitle(preview)}>
              Stored before {formatDateTime(preview.cutoff)}.{" "}
              {preview.pinnedKept > 0 &&
                `${formatCount(preview.pinnedKept)} pinned ${preview.pinnedKept === 1 ? "memory is" : "memories are"} kept. `}
              {preview.listed < preview.total && `The first ${formatCount(preview.listed)} are listed.`}
            </Callout>
            {preview.items.length > 0 && (
              <ul className="max-h-64 space-y-1 overflow-y-auto text-sm">
                {preview.items.map((m) => (
                  <li key={m.id}>
                    <Link href={`/memory/memories/${m.id}`} className="text-accent underline">
                      {m.title || m.id}
                    </Link>{" "}
                    <span className="text-muted">
                      · {m.authorLabel} · {formatDateTime(m.recordedAt)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
            <div className="flex flex-wrap items-center gap-3">
              <Button
                disabled={save.isPending}
                onClick={() =>
                  save.mutate({ scopeId: scope.id, kind, days: preview.days, previewDigest: preview.digest })
                }
              >
                {save.isPending ? "Saving…" : `Save rule: ${KIND_LABELS[kind].toLowerCase()} kept ${preview.days} days`}
              </Button>
              <span role="status" className="text-sm">
                {save.error && <span className="text-danger">{errorMessage(save.error)}</span>}
              </span>
            </div>
          </section>
        )}
      </div>
    </Card>
  );
}

function previewTitle(p: Preview): string {
  if (!p.total) return `This rule erases nothing now (${p.kind} kept ${p.days} days).`;
  return `This rule erases ${formatCount(p.total)} ${p.kind} ${p.total === 1 ? "memory" : "memories"} at the scheduler's next round`;
}
