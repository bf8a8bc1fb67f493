"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { Archive, ArchiveRestore, Pencil, Pin, Trash2, X } from "lucide-react";
import Link from "next/link";
import { useEffect, useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { cn } from "@/components/ui/cn";
import { formatCount, formatDateTime, formatRelative } from "@/components/ui/format";
import { MoreRows } from "@/components/ui/more-rows";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";
import { errorMessage } from "@/components/ui/use-error";
import { useNow } from "@/components/ui/use-now";
import { isNotFound } from "./labels";
import { KindBadge, StateBadge } from "./memory-badges";
import { DeleteThreadDialog, RenameThreadDialog } from "./thread-dialogs";
import type { ThreadMember, ThreadView } from "./types";
import { rememberScope } from "./use-memory-scope";

export const MEMBERS_PAGE = 100;

export function ThreadDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const pages = useInfiniteQuery(
    trpc.threads.get.infiniteQueryOptions(
      { threadId: id, limit: MEMBERS_PAGE },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
  );
  const crumbs = (label: string) => <Breadcrumbs items={[{ href: "/memory/threads", label: "Threads" }, { label }]} />;
  if (pages.isPending)
    return (
      <>
        {crumbs("Loading…")}
        <PageHeader title="Thread" />
        <LoadingRows label="Loading the thread" />
      </>
    );
  if (pages.isError) {
    const missing = isNotFound(pages.error);
    return (
      <>
        {crumbs("Not found")}
        <PageHeader title={missing ? "Thread not found" : "Thread"} />
        {missing ? (
          <EmptyState
            title="This thread does not exist"
            action={
              <Link href="/memory/threads" className="text-accent underline">
                Back to Threads
              </Link>
            }
          >
            It may have been deleted; its memories are still in their scope.
          </EmptyState>
        ) : (
          <ErrorState error={pages.error} retry={() => pages.refetch()} />
        )}
      </>
    );
  }
  const thread = pages.data.pages[0] as ThreadView;
  const members = pages.data.pages.flatMap((p) => p.members);
  return <ThreadLoaded thread={thread} members={members} pages={pages} />;
}

function ThreadLoaded({
  thread,
  members,
  pages,
}: {
  thread: ThreadView;
  members: ThreadMember[];
  pages: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canWrite = useCan("curator");
  const now = useNow();
  const [dialog, setDialog] = useState<"rename" | "delete" | null>(null);
  const scopeQuery = `?scope=${encodeURIComponent(thread.scopeId)}`;
  useEffect(() => rememberScope(thread.scopeId), [thread.scopeId]);

  const invalidate = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.threads.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.memories.get.pathKey() }),
    ]);
  const archive = useMutation(trpc.threads.archive.mutationOptions({ onSuccess: invalidate }));
  const pin = useMutation(trpc.threads.pin.mutationOptions({ onSuccess: invalidate }));
  const remove = useMutation(trpc.threads.removeMembers.mutationOptions({ onSuccess: invalidate }));
  const failure = archive.error ?? pin.error ?? remove.error;
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
      {members.length === 0 ? (
        <EmptyState title="No members yet">
          Add memories from a memory’s page (“Add to thread”); agents add them by naming the thread when they write.
        </EmptyState>
      ) : (
        <>
          <Table aria-label={`Members of ${thread.name}`}>
            <thead>
              <tr>
                <Th className="w-12">
                  <span className="sr-only">Pinned</span>
                </Th>
                <Th>Memory</Th>
                <Th>Kind</Th>
                <Th>Happened</Th>
                {canWrite && (
                  <Th>
                    <span className="sr-only">Actions</span>
                  </Th>
                )}
              </tr>
            </thead>
            <tbody>
              {members.map((m) => (
                <tr
                  key={m.id}
                  data-testid="member-row"
                  data-pinned={m.pinned}
                  className={cn(m.pinned && "bg-accent-soft/40")}
                >
                  <Td>
                    {canWrite ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-pressed={m.pinned}
                        aria-label={`${m.pinned ? "Unpin" : "Pin"} “${m.title || m.id}”`}
                        title={m.pinned ? "Unpin" : "Pin to the top"}
                        disabled={pin.isPending}
                        onClick={() => pin.mutate({ threadId: thread.id, memoryId: m.id, pinned: !m.pinned })}
                        className={m.pinned ? "text-accent" : "text-muted"}
                      >
                        <Pin className={cn("size-4", m.pinned && "fill-current")} aria-hidden />
                      </Button>
                    ) : (
                      m.pinned && <Pin className="size-4 fill-current text-accent" aria-label="Pinned" />
                    )}
                  </Td>
                  <Td className="max-w-xl">
                    <Link href={`/memory/memories/${m.id}`} className="break-words text-accent hover:underline">
                      {m.title || "(erased)"}
                    </Link>{" "}
                    <StateBadge state={m.state} />
                  </Td>
                  <Td>
                    <KindBadge kind={m.kind} />
                  </Td>
                  <Td className="whitespace-nowrap text-muted">
                    <time dateTime={m.occurredAt.toISOString()} title={formatDateTime(m.occurredAt)}>
                      {formatRelative(m.occurredAt, now)}
                    </time>
                  </Td>
                  {canWrite && (
                    <Td className="text-right">
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`Remove “${m.title || m.id}” from this thread`}
                        title="Remove from this thread (the memory stays in its scope)"
                        disabled={remove.isPending}
                        onClick={() => remove.mutate({ threadId: thread.id, memoryIds: [m.id] })}
                      >
                        <X className="size-4" aria-hidden />
                      </Button>
                    </Td>
                  )}
                </tr>
              ))}
            </tbody>
          </Table>
          <div className="mt-4">
            <MoreRows
              shown={members.length}
              total={thread.memberCount}
              pages={pages}
              label={`Load ${MEMBERS_PAGE} more`}
            />
          </div>
        </>
      )}
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
