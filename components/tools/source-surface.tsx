"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { formatCount, formatDateTime } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { Tabs } from "@/components/ui/tabs";
import { NARROW_SCREEN, useMediaQuery } from "@/components/ui/use-media-query";
import { ListBody, ListStatus } from "@/components/ui/virtual-list/list-states";
import { useBlockList } from "@/components/ui/virtual-list/use-block-list";
import { type Column, VirtualTable } from "@/components/ui/virtual-list/virtual-table";
import type { SourceSurfaceView, SurfaceItemRow } from "./types";

type Kind = "resource" | "template" | "prompt";
type ListKey = "resources" | "templates" | "prompts";
const KEYS: Record<Kind, ListKey> = { resource: "resources", template: "templates", prompt: "prompts" };
const NOUNS: Record<Kind, readonly [string, string]> = {
  resource: ["resource", "resources"],
  template: ["resource template", "resource templates"],
  prompt: ["prompt", "prompts"],
};
// A proxied URI is ~70 characters with the Source's id: one line on a wide screen, up to
// three on a phone so it shows whole there too.
const ROW_HEIGHT = 56;
const NARROW_ROW_HEIGHT = 96;

type ListSummary = SourceSurfaceView[ListKey];

/**
 * What the Connection offers agents besides Tools, as its last successful check listed it:
 * resources, resource templates and prompts, each under the URI or name an agent uses at
 * /mcp (`qm://source/<id>/<uri>`, `<prefix>_<prompt>`), which /mcp proxies to this Source.
 */
export function SourceSurface({ sourceId }: { sourceId: string }) {
  const trpc = useTRPC();
  const surface = useQuery(trpc.sources.surface.queryOptions({ id: sourceId }));
  const [kind, setKind] = useState<Kind>("resource");
  return (
    <Card data-testid="source-surface">
      <CardHeader
        title="Resources and prompts"
        description="What agents holding this Source can read and get through /mcp besides its Tools, under the names they use there. Listed by each successful check."
      />
      <div className="p-4">
        <QueryView query={surface} loadingLabel="Loading resources and prompts" loadingRows={2}>
          {(data) => (
            <Tabs
              label="Resources and prompts"
              value={kind}
              onChange={setKind}
              items={(["resource", "template", "prompt"] as const).map((k) => ({
                value: k,
                label: (
                  <span data-testid={`surface-tab-${k}`}>
                    {k === "resource" ? "Resources" : k === "template" ? "Templates" : "Prompts"}{" "}
                    <span className="tabular-nums text-muted">{formatCount(data[KEYS[k]].count)}</span>
                  </span>
                ),
              }))}
            >
              <SurfaceList sourceId={sourceId} kind={kind} summary={data[KEYS[kind]]} />
            </Tabs>
          )}
        </QueryView>
      </div>
    </Card>
  );
}

function StatusLine({ kind, summary }: { kind: Kind; summary: ListSummary }) {
  const plural = NOUNS[kind][1];
  const when = summary.listedAt ? ` (check of ${formatDateTime(summary.listedAt)})` : "";
  if (summary.status === "failed")
    return (
      <p role="alert" className="mb-3 text-sm" data-testid="surface-status">
        <Badge tone="danger">Not listed</Badge>{" "}
        <span className="break-words">
          The server answered the list of {plural} with an error{when}: {summary.failure?.message}
        </span>{" "}
        <span className="font-mono text-xs text-muted">{summary.failure?.code}</span>
      </p>
    );
  if (summary.status === "truncated")
    return (
      <p className="mb-3 text-sm" data-testid="surface-status">
        <Badge tone="warn">Cut short</Badge> <span className="break-words">{summary.failure?.message}</span>
      </p>
    );
  return null;
}

function emptyText(kind: Kind, summary: ListSummary): { title: string; body: string } {
  const plural = NOUNS[kind][1];
  if (summary.status === "not_checked")
    return { title: "Not listed yet", body: `The next successful check lists this Source's ${plural}.` };
  if (summary.status === "not_offered")
    return { title: `No ${plural}`, body: `The server does not offer ${plural} (it does not advertise them).` };
  if (summary.status === "failed")
    return { title: `No ${plural} listed`, body: "The list could not be read; the check itself succeeded." };
  return { title: `No ${plural}`, body: `The server offers ${plural} but listed none.` };
}

function SurfaceList({ sourceId, kind, summary }: { sourceId: string; kind: Kind; summary: ListSummary }) {
  const trpc = useTRPC();
  // Rows change only when a check records new ones.
  const list = useBlockList(
    trpc.sources.surfaceItems,
    { id: sourceId, kind },
    { refresh: { version: summary.checkId } },
  );
  const columns = useMemo(() => columnsFor(kind), [kind]);
  const narrow = useMediaQuery(NARROW_SCREEN);
  const empty = emptyText(kind, summary);
  return (
    <div data-testid={`surface-${kind}`}>
      <StatusLine kind={kind} summary={summary} />
      <ListStatus list={list} noun={NOUNS[kind]} narrowed={false} testId="surface-total" />
      <ListBody
        list={list}
        narrowed={false}
        loadingLabel={`Loading ${NOUNS[kind][1]}`}
        frameClassName="h-64"
        empty={<EmptyState title={empty.title}>{empty.body}</EmptyState>}
      >
        <VirtualTable
          label={NOUNS[kind][1]}
          columns={columns}
          list={list}
          rowHeight={narrow ? NARROW_ROW_HEIGHT : ROW_HEIGHT}
          rowTestId="surface-row"
          fitRows={8}
          minWidth="min-w-[52rem]"
        />
      </ListBody>
    </div>
  );
}

type Item = SurfaceItemRow;

function columnsFor(kind: Kind): Column<Item>[] {
  const agentLabel = kind === "prompt" ? "Name agents use" : "URI agents use";
  return [
    {
      key: "name",
      header: kind === "prompt" ? "Prompt" : kind === "template" ? "Template" : "Resource",
      cell: (item) => (
        <div className="min-w-0">
          <p className="truncate font-medium" title={item.title ? `${item.title} (${item.name})` : item.name}>
            {item.title ?? item.name}
          </p>
          <p
            className="line-clamp-3 break-all font-mono text-xs text-muted md:line-clamp-1"
            title={item.proxied ?? undefined}
            data-testid="surface-proxied"
          >
            <span className="sr-only">{agentLabel}: </span>
            {item.proxied ?? "named when an agent first lists prompts"}
          </p>
        </div>
      ),
    },
    kind === "prompt"
      ? {
          key: "arguments",
          wideOnly: true,
          header: "Arguments",
          width: "w-56",
          className: "truncate text-sm",
          cell: (item) =>
            item.arguments?.length ? (
              <span title={item.arguments.map((a) => `${a.name}${a.required ? " (required)" : ""}`).join(", ")}>
                {item.arguments.map((a) => `${a.name}${a.required ? "*" : ""}`).join(", ")}
              </span>
            ) : (
              <span className="text-muted">none</span>
            ),
        }
      : {
          key: "own",
          wideOnly: true,
          header: kind === "template" ? "Source's URI template" : "Source's URI",
          width: "w-64",
          className: "truncate font-mono text-xs",
          cell: (item) => <span title={item.uri ?? undefined}>{item.uri}</span>,
        },
    ...(kind === "prompt"
      ? []
      : [
          {
            key: "mime",
            wideOnly: true,
            header: "MIME type",
            width: "w-32",
            className: "truncate text-sm",
            cell: (item: Item) => item.mimeType ?? <span className="text-muted">—</span>,
          },
        ]),
    {
      key: "description",
      wideOnly: true,
      header: "Description",
      width: "w-[30%]",
      className: "text-sm",
      cell: (item) => (
        <span className="line-clamp-2" title={item.description || undefined}>
          {item.description || <span className="text-muted">—</span>}
        </span>
      ),
    },
    {
      key: "copy",
      header: <span className="sr-only">Copy</span>,
      width: "w-24",
      className: "text-right",
      cell: (item) => (item.proxied ? <CopyButton value={item.proxied} label="Copy" /> : null),
    },
  ];
}
