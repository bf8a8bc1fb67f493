"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Archive, ArchiveRestore, Pencil, Pin, Trash2, X } from "lucide-react";
import Link from "next/link";
import { useEffect, useMemo, useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { cn } from "@/components/ui/cn";
import { formatCount, formatDateTime, formatRelative } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { DetailQuery } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { errorMessage } from "@/components/ui/use-error";
import { useNow } from "@/components/ui/use-now";
import { ListBody, ListStatus } from "@/components/ui/virtual-list/list-states";
import { useBlockList } from "@/components/ui/virtual-list/use-block-list";
import { type Column, VirtualTable } from "@/components/ui/virtual-list/virtual-table";
import { KindBadge, StateBadge } from "./memory-badges";
import { DeleteThreadDialog, RenameThreadDialog } from "./thread-dialogs";
import type { ThreadMember, ThreadView } from "./types";
import { rememberScope } from "./use-memory-scope";
import { useScopeVersion } from "./use-scope-version";

const ROW_HEIGHT = 44;

export function ThreadDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  // The thread and its counts; its members are a list of their own (threads.members).
  const pages = useQuery(trpc.threads.get.queryOptions({ threadId: id, limit: 1 }));
  return (
    <DetailQuery
      query={pages}
      parent={{ href: "/memory/threads", label: "Threads" }}
      noun="Thread"
      loadingLabel="Loading the thread"
      missing={{
        title: "This thread does not exist",
        body: "It may have been deleted; its memories are still in their scope.",
      }}
    >
      {(data) => <ThreadLoaded thread={data} />}
    </DetailQuery>
  );
}

interface MemberActions {
  canWrite: boolean;
  busy: { pin: boolean; remove: boolean };
  pin: (m: ThreadMember) => void;
  remove: (m: ThreadMember) => void;
}

function memberColumns(actions: MemberActions, now: number): Column<ThreadMember>[] {
  const columns: Column<ThreadMember>[] = [
    {
      key: "pin",
      header: <span className="sr-only">Pinned</span>,
      width: "w-14",
      cell: (m) =>
        actions.canWrite ? (
          <Button
            size="sm"
            variant="ghost"
            aria-pressed={m.pinned}
            aria-label={`${m.pinned ? "Unpin" : "Pin"} “${m.title || m.id}”`}
            title={m.pinned ? "Unpin" : "Pin to the top"}
            disabled={actions.busy.pin}
            onClick={() => actions.pin(m)}
            className={m.pinned ? "text-accent" : "text-muted"}
          >
            <Pin className={cn("size-4", m.pinned && "fill-current")} aria-hidden />
          </Button>
        ) : (
          m.pinned && <Pin className="size-4 fill-current text-accent" aria-label="Pinned" />
        ),
    },
    {
      key: "memory",
      header: "Memory",
      cell: (m) => (
        <span className="flex min-w-0 items-center gap-2" data-pinned={m.pinned}>
          <Link
            href={`/memory/memories/${m.id}`}
            prefetch={false}
            className="min-w-0 truncate text-accent hover:underline"
            title={m.title}
          >
            {m.title || "(erased)"}
          </Link>
          <StateBadge state={m.state} />
        </span>
      ),
    },
    { key: "kind", header: "Kind", width: "w-32", cell: (m) => <KindBadge kind={m.kind} /> },
    {
      key: "when",
      header: "Happened",
      width: "w-40",
      className: "truncate text-muted",
      cell: (m) => (
        <time dateTime={m.occurredAt.toISOString()} title={formatDateTime(m.occurredAt)}>
          {formatRelative(m.occurredAt, now)}
        </time>
      ),
    },
  ];
  if (actions.canWrite)
    columns.push({
      key: "actions",
      header: <span className="sr-only">Actions</span>,
      width: "w-16",
      className: "text-right",
      cell: (m) => (
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Remove “${m.title || m.id}” from this thread`}
          title="Remove from this thread (the memory stays in its scope)"
          disabled={actions.busy.remove}
          onClick={() => actions.remove(m)}
        >
          <X className="size-4" aria-hidden />
        </Button>
      ),
    });
  return columns;
}

function ThreadLoaded({ thread }: { thread: ThreadView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canWrite = useCan("curator");
  const now = useNow();
  const { version, changed } = useScopeVersion(thread.scopeId);
  const members = useBlockList(trpc.threads.members, { threadId: thread.id }, { refresh: { version } });
  // The header's counts move with the members: refetched with the same version.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the version is the trigger
  useEffect(() => {
    if (version !== undefined)
      void queryClient.invalidateQueries({ queryKey: trpc.threads.get.queryKey({ threadId: thread.id, limit: 1 }) });
  }, [version]);
  const [dialog, setDialog] = useState<"rename" | "delete" | null>(null);
  const scopeQuery = `?scope=${encodeURIComponent(thread.scopeId)}`;
  useEffect(() => rememberScope(thread.scopeId), [thread.scopeId]);

  // The scope version moves with any change here, and the list and counts follow it.
  const invalidate = () =>
    Promise.all([changed(), queryClient.invalidateQueries({ queryKey: trpc.memories.get.pathKey() })]);
  const archive = useMutation(trpc.threads.archive.mutationOptions({ onSuccess: invalidate }));
  const pin = useMutation(trpc.threads.pin.mutationOptions({ onSuccess: invalidate }));
  const remove = useMutation(trpc.threads.removeMembers.mutationOptions({ onSuccess: invalidate }));
  const failure = archive.error ?? pin.error ?? remove.error;
  const pinMutate = pin.mutate;
  const removeMutate = remove.mutate;
  const columns = useMemo(
    () =>
      memberColumns(
        {
          canWrite,
          busy: { pin: pin.isPending, remove: remove.isPending },
          pin: (m) => pinMutate({ threadId: thread.id, memoryId: m.id, pinned: !m.pinned }),
          remove: (m) => removeMutate({ threadId: thread.id, memoryIds: [m.id] }),
        },
        now,
      ),
    [canWrite, pin.isPending, remove.isPending, pinMutate, removeMutate, thread.id, now],
  );
  const archived = Boolean(thread.archivedAt);

  return (
    <>
      <Breadcrumbs
        items={[
          { href: `/memory/threads${scopeQuery}`, label: `Threads · ${thread.scopeName}` },
          { label: thread.name },
        ]}
      />
      <PageHeader
        title={thread.name}
        description={
          <>
            {thread.description && <span className="mb-1 block">{thread.description}</span>}
            <span className="flex flex-wrap items-center gap-2">
              {archived && (
                <span data-testid="archived-badge" className="inline-flex">
                  <Badge>
                    <Archive className="size-3" aria-hidden /> Archived {formatRelative(thread.archivedAt, now)}
                  </Badge>
                </span>
              )}
              <span data-testid="thread-counts">
                {formatCount(thread.memberCount)} {thread.memberCount === 1 ? "member" : "members"} ·{" "}
                {formatCount(thread.pinnedCount)} pinned
              </span>
            </span>
          </>
        }
        actions={
          canWrite && (
            <>
              <Button variant="secondary" onClick={() => setDialog("rename")}>
                <Pencil className="size-4" aria-hidden /> Rename
              </Button>
              <Button
                variant="secondary"
                disabled={archive.isPending}
                onClick={() => archive.mutate({ threadId: thread.id, archived: !archived })}
              >
                {archived ? (
                  <>
                    <ArchiveRestore className="size-4" aria-hidden /> Unarchive
                  </>
                ) : (
                  <>
                    <Archive className="size-4" aria-hidden /> Archive
                  </>
                )}
              </Button>
              <Button variant="danger" onClick={() => setDialog("delete")}>
                <Trash2 className="size-4" aria-hidden /> Delete…
              </Button>
            </>
          )
        }
      />
      {archived && (
        <Callout className="mb-4" title="Archived">
          Kept for reference: it is out of the active list, and its memories are still found by searches.
        </Callout>
      )}
      {failure && (
        <Callout tone="danger" role="alert" className="mb-4" title="Not changed">
          {errorMessage(failure)}
        </Callout>
      )}
      <ListStatus list={members} noun={["member", "members"]} narrowed={false} testId="members-total">
        {!members.isPending && ", pinned first, then newest first"}
      </ListStatus>
      <ListBody
        list={members}
        narrowed={false}
        loadingLabel="Loading the thread's members"
        empty={
          <EmptyState title="No members yet">
            Add memories from a memory’s page (“Add to thread”); agents add them by naming the thread when they write.
          </EmptyState>
        }
      >
        <VirtualTable
          label={`Members of ${thread.name}`}
          columns={columns}
          list={members}
          rowHeight={ROW_HEIGHT}
          rowTestId="member-row"
          scrollTestId="members-scroll"
          fitRows={members.total > 12 ? undefined : 12}
          minWidth="min-w-[40rem]"
        />
      </ListBody>
      <p className="mt-4 text-sm">
        <Link
          href={`/memory/memories${scopeQuery}&thread=${encodeURIComponent(thread.id)}`}
          className="text-accent hover:underline"
        >
          Search within this thread
        </Link>
      </p>
      {dialog === "rename" && <RenameThreadDialog thread={thread} open onClose={() => setDialog(null)} />}
      {dialog === "delete" && <DeleteThreadDialog thread={thread} open onClose={() => setDialog(null)} />}
    </>
  );
}
