"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowDown, GitMerge, Pin, PinOff, Plus, Trash2 } from "lucide-react";
import Link from "next/link";
import { useEffect, useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Card, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Facts } from "@/components/ui/facts";
import { formatBytes, formatDateTime } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { DetailQuery } from "@/components/ui/query-view";
import { Table, Td, Th } from "@/components/ui/table";
import { errorMessage } from "@/components/ui/use-error";
import { AddToThreadDialog } from "./add-to-thread-dialog";
import { EraseMemoryDialog } from "./erase-memory-dialog";
import { MarkdownBody } from "./markdown-body";
import { FlaggedBadge, HeldBadge, KindBadge, StateBadge } from "./memory-badges";
import type { MemoryView } from "./types";
import { rememberScope } from "./use-memory-scope";

export function MemoryDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const memory = useQuery(trpc.memories.get.queryOptions({ id }));
  return (
    <DetailQuery
      query={memory}
      parent={{ href: "/memory/memories", label: "Memories" }}
      noun="Memory"
      loadingLabel="Loading the memory"
      missing={{
        title: "No memory with this id",
        body: "It never existed here, or it is in a scope you cannot read.",
        back: "Search memories",
      }}
    >
      {(data) => <MemoryLoaded memory={data} />}
    </DetailQuery>
  );
}

function MemoryLoaded({ memory }: { memory: MemoryView }) {
  const isAdmin = useCan("admin");
  const canWrite = useCan("curator");
  const [erasing, setErasing] = useState(false);
  const scopeHref = `/memory/memories?scope=${encodeURIComponent(memory.scopeId)}`;
  const erased = memory.state === "erased";
  // Opening a memory from another scope makes that scope the one the lists show next.
  useEffect(() => rememberScope(memory.scopeId), [memory.scopeId]);

  return (
    <>
      <Breadcrumbs
        items={[
          { href: scopeHref, label: `Memories · ${memory.scopeName}` },
          { label: erased ? "Erased memory" : shorten(memory.title || "Memory", 60) },
        ]}
      />
      <PageHeader
        title={erased ? "Erased memory" : memory.title || "(untitled)"}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <KindBadge kind={memory.kind} />
            <StateBadge state={memory.state} always />
            <FlaggedBadge flagged={memory.flagged} reasons={memory.flagReasons} />
            <HeldBadge quarantined={memory.quarantined} />
            {memory.admittedAt && (
              <span data-testid="memory-admitted">
                admitted by {memory.admittedBy ?? "a curator"} on {formatDateTime(memory.admittedAt)}
              </span>
            )}
            <span>
              in scope{" "}
              <Link href={scopeHref} className="text-accent hover:underline">
                {memory.scopeName}
              </Link>
            </span>
          </span>
        }
        actions={
          isAdmin &&
          !erased && (
            <Button variant="danger" onClick={() => setErasing(true)}>
              <Trash2 className="size-4" aria-hidden /> Erase…
            </Button>
          )
        }
      />
      <StateCallout memory={memory} />
      <FlagCallout memory={memory} canClear={canWrite && !erased} />

      <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="min-w-0 space-y-6">
          <Card>
            <CardHeader title="Body" description={erased ? undefined : `Markdown, ${formatBytes(memory.bodyBytes)}`} />
            <div className="p-4">
              {memory.body === null ? (
                <p className="text-sm text-muted">The body was erased. Nothing of it remains in any table or index.</p>
              ) : (
                <MarkdownBody source={memory.body} />
              )}
            </div>
          </Card>
          <FactsCard memory={memory} />
          {memory.mergedFrom.length > 0 && <MergedFromCard memory={memory} />}
        </div>
        <div className="min-w-0 space-y-6">
          <Card>
            <CardHeader title="About" />
            <div className="p-4">
              <Facts
                className="sm:grid-cols-1 lg:grid-cols-1"
                items={[
                  { label: "Author", value: memory.authorLabel },
                  {
                    label: "Happened",
                    value: <time dateTime={memory.occurredAt.toISOString()}>{formatDateTime(memory.occurredAt)}</time>,
                  },
                  {
                    label: "Recorded",
                    value: <time dateTime={memory.recordedAt.toISOString()}>{formatDateTime(memory.recordedAt)}</time>,
                  },
                  {
                    label: "Tags",
                    value: memory.tags.length ? (
                      <span className="flex flex-wrap gap-1">
                        {memory.tags.map((t) => (
                          <Link
                            key={t}
                            href={`${scopeHref}&tags=${encodeURIComponent(t)}`}
                            className="rounded-full hover:underline"
                          >
                            <Badge className="font-normal">{t}</Badge>
                          </Link>
                        ))}
                      </span>
                    ) : (
                      <span className="text-muted">None</span>
                    ),
                  },
                  {
                    label: "Id",
                    value: (
                      <span className="flex items-center gap-2">
                        <code className="break-all font-mono text-xs">{memory.id}</code>
                        <CopyButton value={memory.id} label="Copy" />
                      </span>
                    ),
                  },
                ]}
              />
            </div>
          </Card>
          <ProvenanceCard memory={memory} />
          <ChainCard memory={memory} />
          <ThreadsCard memory={memory} canWrite={canWrite && !erased} />
        </div>
      </div>
      {isAdmin && <EraseMemoryDialog memory={memory} open={erasing} onClose={() => setErasing(false)} />}
    </>
  );
}

function StateCallout({ memory }: { memory: MemoryView }) {
  if (memory.state === "erased")
    return (
      <Callout tone="danger" className="mb-6" title="Erased" data-testid="erased-callout">
        Erased {formatDateTime(memory.erasedAt)} by {memory.erasedBy ?? "an admin"}. Reason: {memory.erasureReason}
      </Callout>
    );
  if (memory.state === "superseded" && memory.supersededById)
    return (
      <Callout tone="warn" className="mb-6" title="Superseded">
        A newer memory replaced this one {memory.supersededAt ? `on ${formatDateTime(memory.supersededAt)}` : ""}:{" "}
        <Link
          href={`/memory/memories/${memory.currentVersionId ?? memory.supersededById}`}
          className="font-medium text-accent underline"
        >
          read the current version
        </Link>
        . This one stays readable by id but no longer appears in searches.
      </Callout>
    );
  if (memory.state === "discarded")
    return (
      <Callout className="mb-6" title="Discarded">
        A curator discarded it {formatDateTime(memory.discardedAt)}. It stays readable by id but no longer appears in
        searches.
      </Callout>
    );
  return null;
}

/** Why screening flagged it, and the curator's way to let briefings show it again. */
function FlagCallout({ memory, canClear }: { memory: MemoryView; canClear: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const clear = useMutation(
    trpc.memories.clearFlag.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.memories.get.queryKey({ id: memory.id }) }),
          queryClient.invalidateQueries({ queryKey: trpc.memories.list.pathKey() }),
        ]),
    }),
  );
  if (!memory.flagReasons.length) return null;
  const reasons = (
    <ul className="mt-1 list-disc pl-5">
      {memory.flagReasons.map((r) => (
        <li key={r}>{r}</li>
      ))}
    </ul>
  );
  if (!memory.flagged)
    return (
      <Callout className="mb-6" title="Flag cleared" data-testid="flag-cleared">
        {memory.flagClearedBy ?? "A curator"} cleared it {formatDateTime(memory.flagClearedAt)}; screening had found:
        {reasons}
      </Callout>
    );
  return (
    <Callout
      tone="warn"
      className="mb-6"
      title="Flagged: may carry instructions aimed at an agent"
      data-testid="flag-callout"
    >
      Screening found the following when it was written, so briefings leave it out and search marks it flagged:
      {reasons}
      {canClear && (
        <div className="mt-3 flex items-center gap-3">
          <Button variant="secondary" disabled={clear.isPending} onClick={() => clear.mutate({ id: memory.id })}>
            Clear flag
          </Button>
          {clear.error && <span role="alert">{errorMessage(clear.error)}</span>}
        </div>
      )}
    </Callout>
  );
}

const WRITTEN_VIA_LABEL: Record<string, string> = {
  mcp: "An agent, over /mcp",
  console: "The console",
  api: "The API, with an API key",
  system: "Quartermaster itself",
};

/**
 * Where the memory came from (docs/decisions/0089). A memory written before provenance was
 * recorded says unknown for each field rather than guessing from its author.
 */
function ProvenanceCard({ memory }: { memory: MemoryView }) {
  const unknown = <span className="text-muted">Unknown</span>;
  const none = <span className="text-muted">None</span>;
  const recorded = memory.writtenVia !== null;
  const code = (value: string) => (
    <span className="flex items-center gap-2">
      <code className="break-all font-mono text-xs">{value}</code>
      <CopyButton value={value} label="Copy" />
    </span>
  );
  const filtered = (param: string, value: string) =>
    `/memory/memories?scope=${encodeURIComponent(memory.scopeId)}&${param}=${encodeURIComponent(value)}`;
  return (
    <Card data-testid="provenance">
      <CardHeader
        title="Provenance"
        description={
          recorded
            ? "Who wrote it, with which credential, and for an agent the Tool Call and client."
            : "Written before Quartermaster recorded provenance: only the author is known."
        }
      />
      <div className="p-4">
        <Facts
          className="sm:grid-cols-1 lg:grid-cols-1"
          items={[
            {
              label: "Author",
              value: (
                <span>
                  {memory.authorLabel} <span className="text-muted">({memory.authorType.replace("_", " ")})</span>
                </span>
              ),
            },
            {
              label: "Written through",
              value: recorded ? (WRITTEN_VIA_LABEL[memory.writtenVia ?? ""] ?? memory.writtenVia) : unknown,
            },
            {
              label: "Token or session",
              value: memory.authorTokenId ? code(memory.authorTokenId) : recorded ? none : unknown,
            },
            {
              label: "Tool Call",
              value: memory.callId ? (
                <span className="flex flex-col gap-1">
                  {code(memory.callId)}
                  <Link href={filtered("callId", memory.callId)} className="text-xs text-accent hover:underline">
                    Memories this call wrote
                  </Link>
                </span>
              ) : recorded ? (
                none
              ) : (
                unknown
              ),
            },
            {
              label: "MCP client",
              value: memory.clientName ? (
                <Link href={filtered("clientName", memory.clientName)} className="hover:underline">
                  {memory.clientName} {memory.clientVersion}
                </Link>
              ) : recorded && memory.writtenVia !== "mcp" ? (
                none
              ) : (
                unknown
              ),
            },
          ]}
        />
      </div>
    </Card>
  );
}

function shorten(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
}

const RELATION_LABELS = { earlier: "Earlier", this: "This memory", later: "Later" } as const;

/** The supersession chain, oldest first: what this memory replaced and what replaced it. */
function ChainCard({ memory }: { memory: MemoryView }) {
  const single = memory.chain.length <= 1;
  return (
    <Card data-testid="supersession-chain">
      <CardHeader
        title="Supersession chain"
        description={
          single
            ? "Nothing replaced it, and it replaced nothing."
            : "Oldest first; a correction supersedes the one above."
        }
      />
      {!single && (
        <ol className="space-y-1 p-4">
          {memory.chain.map((c, i) => (
            <li key={c.id}>
              {i > 0 && <ArrowDown className="mx-auto mb-1 size-3.5 text-muted" aria-hidden />}
              <div
                className={
                  c.relation === "this"
                    ? "rounded-md border border-accent bg-accent-soft px-3 py-2"
                    : "rounded-md border border-border px-3 py-2"
                }
                data-relation={c.relation}
              >
                <p className="flex flex-wrap items-center gap-2 text-xs text-muted">
                  <span className="font-medium uppercase tracking-wide">{RELATION_LABELS[c.relation]}</span>
                  <KindBadge kind={c.kind} />
                  <StateBadge state={c.state} />
                  <time dateTime={c.occurredAt.toISOString()}>{formatDateTime(c.occurredAt)}</time>
                </p>
                {c.relation === "this" ? (
                  <p className="mt-1 text-sm font-medium">{c.title || "(erased)"}</p>
                ) : (
                  <Link href={`/memory/memories/${c.id}`} className="mt-1 block text-sm text-accent hover:underline">
                    {c.erasedAt ? "(erased)" : c.title || "(untitled)"}
                  </Link>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function FactsCard({ memory }: { memory: MemoryView }) {
  if (!memory.facts.length && memory.state === "erased") return null;
  return (
    <Card>
      <CardHeader
        title="Facts"
        description={
          memory.facts.length
            ? "What this memory states, with when each value held. A newer value for the same subject and predicate ends it."
            : undefined
        }
      />
      {memory.facts.length === 0 ? (
        <p className="p-4 text-sm text-muted">This memory states no facts.</p>
      ) : (
        <div className="p-4">
          <Table aria-label="Facts">
            <thead>
              <tr>
                <Th>Subject</Th>
                <Th>Predicate</Th>
                <Th>Value</Th>
                <Th>Valid</Th>
              </tr>
            </thead>
            <tbody>
              {memory.facts.map((f) => (
                <tr key={f.id} data-testid="fact-row">
                  <Td>{f.subject}</Td>
                  <Td className="text-muted">{f.predicate}</Td>
                  <Td className="font-medium">{f.value}</Td>
                  <Td className="whitespace-nowrap text-xs">
                    {formatDateTime(f.validFrom)} →{" "}
                    {f.current ? <Badge tone="ok">now</Badge> : formatDateTime(f.validUntil)}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
    </Card>
  );
}

function MergedFromCard({ memory }: { memory: MemoryView }) {
  return (
    <Card>
      <CardHeader
        title={
          <span className="inline-flex items-center gap-1.5">
            <GitMerge className="size-4" aria-hidden /> Merged from
          </span>
        }
        description="An accepted merge wrote this memory from these; they stay readable by id."
      />
      <ul className="divide-y divide-border">
        {memory.mergedFrom.map((m) => (
          <li key={m.id} className="flex flex-wrap items-center gap-2 px-4 py-2 text-sm">
            <KindBadge kind={m.kind} />
            {m.erasedAt ? (
              <>
                <Badge tone="danger">Erased</Badge>
                <Link href={`/memory/memories/${m.id}`} className="text-muted hover:underline">
                  Tombstone of {m.id.slice(0, 8)}…
                </Link>
              </>
            ) : (
              <Link href={`/memory/memories/${m.id}`} className="text-accent hover:underline">
                {m.title || m.id}
              </Link>
            )}
            {m.occurredAt && <span className="text-xs text-muted">{formatDateTime(m.occurredAt)}</span>}
          </li>
        ))}
      </ul>
    </Card>
  );
}

function ThreadsCard({ memory, canWrite }: { memory: MemoryView; canWrite: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const invalidate = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.memories.get.queryKey({ id: memory.id }) }),
      queryClient.invalidateQueries({ queryKey: trpc.threads.pathKey() }),
    ]);
  const pin = useMutation(trpc.threads.pin.mutationOptions({ onSuccess: invalidate }));
  return (
    <Card>
      <CardHeader
        title="Threads"
        actions={
          canWrite && (
            <Button size="sm" variant="secondary" onClick={() => setAdding(true)}>
              <Plus className="size-4" aria-hidden /> Add to thread
            </Button>
          )
        }
      />
      {memory.threads.length === 0 ? (
        <p className="p-4 text-sm text-muted">In no thread.</p>
      ) : (
        <ul className="divide-y divide-border" aria-label="Threads of this memory">
          {memory.threads.map((t) => (
            <li key={t.id} className="flex items-center justify-between gap-2 px-4 py-2 text-sm">
              <span className="flex min-w-0 flex-wrap items-center gap-2">
                <Link href={`/memory/threads/${t.id}`} className="text-accent hover:underline">
                  {t.name}
                </Link>
                {t.pinned && (
                  <Badge tone="accent">
                    <Pin className="size-3" aria-hidden /> Pinned
                  </Badge>
                )}
                {t.archivedAt && <Badge>Archived</Badge>}
              </span>
              {canWrite && (
                <Button
                  size="sm"
                  variant="ghost"
                  aria-pressed={t.pinned}
                  aria-label={`${t.pinned ? "Unpin from" : "Pin in"} ${t.name}`}
                  disabled={pin.isPending}
                  onClick={() => pin.mutate({ threadId: t.id, memoryId: memory.id, pinned: !t.pinned })}
                >
                  {t.pinned ? <PinOff className="size-4" aria-hidden /> : <Pin className="size-4" aria-hidden />}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {pin.error && (
        <div className="px-4 pb-4">
          <Callout tone="danger" role="alert" title="Not changed">
            {errorMessage(pin.error)}
          </Callout>
        </div>
      )}
      {canWrite && (
        <AddToThreadDialog
          memory={memory}
          open={adding}
          onClose={() => setAdding(false)}
          onAdded={() => {
            setAdding(false);
            void invalidate();
          }}
        />
      )}
    </Card>
  );
}
