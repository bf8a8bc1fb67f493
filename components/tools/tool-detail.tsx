"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { PinButton } from "@/components/agents/pin-button";
import { CallStats } from "@/components/calls/call-stats";
import { RateLimitCard } from "@/components/calls/rate-limit-card";
import { useCan } from "@/components/layout/current-user";
import { CallPolicyCard } from "@/components/tools/call-policy-card";
import { useTRPC } from "@/components/trpc/client";
import { Badge } from "@/components/ui/badge";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { Callout } from "@/components/ui/callout";
import { Card, CardHeader } from "@/components/ui/card";
import { Facts } from "@/components/ui/facts";
import { formatBytes, formatCount, formatDateTime, formatRelative } from "@/components/ui/format";
import { JsonBlock } from "@/components/ui/json-block";
import { PageHeader } from "@/components/ui/page-header";
import { DetailQuery } from "@/components/ui/query-view";
import { COMPATIBILITY_LABELS } from "@/universal/compatibility";
import { CompatibilityBadge } from "./compatibility-badge";
import { KIND_LABELS } from "./labels";
import { ToolArguments } from "./tool-arguments";
import { ToolNeighbours } from "./tool-neighbours";
import { TryTool } from "./try-tool";
import type { ToolDetailView } from "./types";

const HINTS: Record<string, string> = {
  readOnlyHint: "Read-only",
  destructiveHint: "Destructive",
  idempotentHint: "Idempotent",
  openWorldHint: "Open world",
};

export function ToolDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const tool = useQuery(trpc.catalog.getTool.queryOptions({ id }));

  return (
    <DetailQuery
      query={tool}
      parent={{ href: "/tools/catalog", label: "Catalog" }}
      noun="Tool"
      loadingLabel="Loading the Tool"
      bareLoading
      missing={{
        title: "This Tool is not in the catalog",
        body: "Its Source may have stopped publishing it, or the Source was deleted.",
        back: "Back to the catalog",
      }}
    >
      {(data) => <Loaded tool={data} />}
    </DetailQuery>
  );
}

function Loaded({ tool }: { tool: ToolDetailView }) {
  const hints = Object.entries(
    tool.annotations && typeof tool.annotations === "object" ? (tool.annotations as Record<string, unknown>) : {},
  ).filter(([k, v]) => k in HINTS && v === true);
  const heldBy = holdersOf(tool);
  const canTry = useCan("operator");

  return (
    <>
      <Breadcrumbs
        items={[
          { href: "/tools/catalog", label: "Catalog" },
          { href: `/tools/catalog?source=${tool.sourceId}`, label: tool.sourceName },
          { label: tool.nativeName },
        ]}
      />
      <PageHeader
        title={tool.nativeName}
        description={
          <span className="flex flex-wrap items-center gap-2">
            {tool.title && <span className="text-fg">{tool.title}</span>}
            <CompatibilityBadge state={tool.compatibility.state} withdrawn={tool.withdrawn} />
            {hints.map(([k]) => (
              <Badge key={k}>{HINTS[k]}</Badge>
            ))}
          </span>
        }
      />
      <div className="space-y-6">
        <CompatibilityCallout tool={tool} />

        <Card>
          <CardHeader title="Details" />
          <div className="p-4">
            <Facts
              items={[
                {
                  label: "Source",
                  value: (
                    <>
                      <Link
                        href={`/tools/sources/${tool.sourceId}`}
                        className="font-medium text-accent hover:underline"
                      >
                        {tool.sourceName}
                      </Link>{" "}
                      <span className="text-muted">· {KIND_LABELS[tool.sourceKind]}</span>
                    </>
                  ),
                },
                {
                  label: "Model-facing name",
                  value: tool.modelFacingName ? (
                    <code className="break-all font-mono text-xs">{tool.modelFacingName}</code>
                  ) : (
                    <span className="text-muted">none — not offered to models</span>
                  ),
                },
                {
                  label: "Definition size",
                  value: <Bytes n={tool.definitionBytes} />,
                },
                {
                  label: "Model-facing size",
                  value: tool.modelFacingName ? (
                    <Bytes n={tool.modelFacingBytes} />
                  ) : (
                    <span className="text-muted">—</span>
                  ),
                },
                { label: "First seen", value: <When at={tool.firstSeenAt} /> },
                { label: "Last changed", value: <When at={tool.lastChangedAt} /> },
                {
                  label: "Definition hash",
                  value: (
                    <code className="font-mono text-xs" title={tool.definitionHash}>
                      {tool.definitionHash.slice(0, 16)}…
                    </code>
                  ),
                },
              ]}
            />
          </div>
        </Card>

        <CallStats subject="tool" id={tool.id} />
        {tool.modelFacingName && <RateLimitCard subjectType="tool" subjectId={tool.id} />}
        <CallPolicyCard toolId={tool.id} callPolicy={tool.callPolicy} />

        {heldBy && (
          <Section title="Held by">
            {heldBy.items.length === 0 ? (
              <p className="text-sm text-muted">
                {tool.compatibility.state !== "compatible"
                  ? "No Agent Identity holds this Tool: it is not Compatible."
                  : tool.withdrawn
                    ? "No Agent Identity holds this Tool while its host is silent."
                    : "No Agent Identity holds this Tool yet: assign its Source to an identity."}
              </p>
            ) : (
              <>
                <p className="mb-2 text-sm text-muted">
                  {formatCount(heldBy.total)} {heldBy.total === 1 ? "Agent Identity holds" : "Agent Identities hold"}{" "}
                  this Tool.
                </p>
                <ul className="flex flex-wrap gap-2">
                  {heldBy.items.map((identity) => (
                    <li key={identity.id} className="inline-flex items-center gap-1.5" data-testid="holder">
                      <Link
                        href={`/agents/${identity.id}`}
                        className="inline-flex rounded-full border border-border px-2.5 py-0.5 text-sm text-accent hover:bg-surface-2"
                      >
                        {identity.name}
                      </Link>
                      {/* Pinned: listed first whenever that identity lists a selection. */}
                      {canTry && tool.modelFacingName ? (
                        <PinButton
                          identityId={identity.id}
                          name={tool.modelFacingName}
                          pinned={Boolean(identity.pinned)}
                          label={`for ${identity.name}`}
                        />
                      ) : (
                        identity.pinned && <span className="text-xs text-muted">pinned</span>
                      )}
                    </li>
                  ))}
                  {heldBy.total > heldBy.items.length && (
                    <li className="px-1 py-0.5 text-sm text-muted">
                      and {formatCount(heldBy.total - heldBy.items.length)} more
                    </li>
                  )}
                </ul>
              </>
            )}
          </Section>
        )}
        {/* A Tool no model is offered cannot be called as an agent; the callout above says why. */}
        {canTry && tool.modelFacingName && <TryTool tool={tool} />}

        <Section title="Description">
          {tool.description ? (
            <p className="whitespace-pre-wrap break-words text-sm">{tool.description}</p>
          ) : (
            <p className="text-sm text-muted">The Source gives no description. Models pick Tools by it; ask for one.</p>
          )}
        </Section>

        <Section title="Nearest neighbours">
          <ToolNeighbours id={tool.id} />
        </Section>

        <Section title="Arguments">
          <ToolArguments inputSchema={tool.inputSchema} state={tool.compatibility.state} />
        </Section>

        <Section title="Input schema">
          <JsonBlock value={tool.inputSchema} label="input schema" />
        </Section>

        <Section title="Output schema">
          {tool.outputSchema ? (
            <JsonBlock value={tool.outputSchema} label="output schema" />
          ) : (
            <p className="text-sm text-muted">None declared: the Tool returns unstructured content.</p>
          )}
        </Section>

        <Section title="Passed on to clients">
          {tool.clientFields && Object.values(tool.clientFields).some((v) => v !== null) ? (
            <JsonBlock
              value={Object.fromEntries(Object.entries(tool.clientFields).filter(([, v]) => v !== null))}
              label="fields passed on to clients"
              note="Agents' clients get these at /mcp with the output schema and annotations; models are not sent them and the budget does not count them."
            />
          ) : (
            <p className="text-sm text-muted">No icons, _meta or execution published.</p>
          )}
        </Section>

        <Section title="Full definition">
          <JsonBlock
            value={tool.definition}
            label="definition"
            note={`As the Source published it · ${formatCount(tool.definitionBytes)} bytes`}
            maxHeight="36rem"
          />
        </Section>
      </div>
    </>
  );
}

type Holder = { id: string; name: string; pinned?: boolean };

/**
 * Who holds the Tool, when the API says so. Accepts a plain list or a page
 * ({ total, items }); renders nothing for a response without the field.
 */
function holdersOf(tool: unknown): { total: number; items: Holder[] } | null {
  const held = (tool as { heldBy?: unknown }).heldBy;
  if (Array.isArray(held)) return { total: held.length, items: held as Holder[] };
  if (held && typeof held === "object" && Array.isArray((held as { items?: unknown }).items)) {
    const page = held as { total?: number; items: Holder[] };
    return { total: page.total ?? page.items.length, items: page.items };
  }
  return null;
}

function CompatibilityCallout({ tool }: { tool: ToolDetailView }) {
  const { state, reason } = tool.compatibility;
  if (tool.withdrawn)
    return (
      <Callout tone="warn" data-testid="compatibility-reason" title="Withdrawn (host silent)">
        Its SDK Tool Host stopped sending heartbeats, so no Agent Identity is offered this Tool until the host speaks
        again.{" "}
        {state === "compatible"
          ? "Otherwise it is Compatible."
          : `It is also ${COMPATIBILITY_LABELS[state]}: ${reason ?? ""}`}
      </Callout>
    );
  if (state === "compatible")
    return (
      <Callout tone="ok" data-testid="compatibility-reason" title="Compatible">
        Offered to models as <code className="font-mono text-xs">{tool.modelFacingName}</code> by every Agent Identity
        that holds its Source.
      </Callout>
    );
  if (state === "awaiting_review" || state === "review_rejected")
    return (
      <Callout tone="warn" data-testid="compatibility-reason" title={COMPATIBILITY_LABELS[state]}>
        <p>{reason}</p>
        <p className="mt-1">
          <Link href="/tools/review" className="font-medium text-accent hover:underline">
            Open Tools → Review
          </Link>{" "}
          to read what changed and decide.
        </p>
      </Callout>
    );
  return (
    <Callout tone="danger" data-testid="compatibility-reason" title={COMPATIBILITY_LABELS[state] ?? state}>
      <p>{reason ?? "A model cannot be offered this Tool as it is published."}</p>
      <p className="mt-1 text-muted">The Tool stays in the catalog but is never offered to a model.</p>
    </Callout>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replaceAll(" ", "-")}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-2 text-base font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Bytes({ n }: { n: number }) {
  return <span title={`${formatCount(n)} bytes`}>{formatBytes(n)}</span>;
}

function When({ at }: { at: Date }) {
  return (
    <time dateTime={at.toISOString()} title={formatDateTime(at)}>
      {formatRelative(at)}
    </time>
  );
}
