"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { IdentityCalls } from "@/components/calls/identity-calls";
import { IdentityScopes } from "@/components/memory/identity-scopes";
import { useTRPC } from "@/components/trpc/client";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { formatCount } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { DetailQuery } from "@/components/ui/query-view";
import { type TabItem, Tabs } from "@/components/ui/tabs";
import { useUrlState } from "@/components/ui/use-url-state";
import { AgentTokens } from "./agent-tokens";
import { AwaitingReviewAlert } from "./awaiting-review-alert";
import { BudgetBar } from "./budget-bar";
import { BudgetPanel } from "./budget-panel";
import { ConfusableTools } from "./confusable-tools";
import { HoldingsTable } from "./holdings-table";
import { IdentitySettings } from "./identity-settings";
import { IdentitySources } from "./identity-sources";
import { IdentityStateBadge } from "./identity-state-badge";
import { toolCount } from "./labels";
import { LinkFollowRates } from "./link-follow-rates";
import { LostRecently, useHoldingChangeSummary } from "./lost-recently";
import { OAuthGrants } from "./oauth-grants";
import { OverBudgetAlert } from "./over-budget-alert";
import type { IdentityView } from "./types";

const TABS = ["budget", "sources", "holdings", "confusable", "lost", "calls", "memory", "tokens", "settings"] as const;
type Tab = (typeof TABS)[number];

// Catalog growth can push the identity over its budget while this page is open.
const REFRESH_MS = 30_000;

export function IdentityDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const identity = useQuery({ ...trpc.identities.get.queryOptions({ id }), refetchInterval: REFRESH_MS });

  return (
    <DetailQuery
      query={identity}
      parent={{ href: "/agents", label: "Agent Identities" }}
      noun="Agent Identity"
      loadingLabel="Loading the Agent Identity"
      missing={{ title: "This Agent Identity does not exist", body: "It may have been deleted." }}
    >
      {(data) => <IdentityLoaded identity={data} />}
    </DetailQuery>
  );
}

function IdentityLoaded({ identity }: { identity: IdentityView }) {
  const [tab, setTab] = useTabParam();
  const changes = useHoldingChangeSummary(identity.id);
  const lost = changes.data?.summary.lostTools;

  const items: TabItem<Tab>[] = [
    { value: "budget", label: "Budget" },
    { value: "sources", label: <Labelled text="Sources" count={identity.sources.length} /> },
    { value: "holdings", label: <Labelled text="Holdings" count={identity.tools} /> },
    { value: "confusable", label: "Confusable Tools" },
    { value: "lost", label: <Labelled text="Lost recently" count={lost} danger /> },
    { value: "calls", label: "Calls" },
    { value: "memory", label: "Memory scopes" },
    { value: "tokens", label: "Tokens" },
    { value: "settings", label: "Settings" },
  ];

  return (
    <>
      <Breadcrumbs items={[{ href: "/agents", label: "Agent Identities" }, { label: identity.name }]} />
      <PageHeader
        title={identity.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <IdentityStateBadge
              state={identity.state}
              failingSources={identity.sources.filter((s) => s.failing).map((s) => s.name)}
            />
            {identity.description && <span>{identity.description}</span>}
          </span>
        }
      />
      <OverBudgetAlert identity={identity} />
      <AwaitingReviewAlert identityId={identity.id} />

      <section
        aria-label="At a glance"
        className="mb-6 grid gap-4 rounded-lg border border-border bg-surface p-4 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]"
      >
        <BudgetBar budget={identity.budget} label={`Budget used by ${identity.name}`} />
        <Glance label="Holds">
          {toolCount(identity.tools)} from {formatCount(identity.sources.length)}{" "}
          {identity.sources.length === 1 ? "Source" : "Sources"}
        </Glance>
        <Glance label="Last 30 days">
          {changes.data ? (
            <button type="button" className="text-left text-accent hover:underline" onClick={() => setTab("lost")}>
              Lost {toolCount(changes.data.summary.lostTools)}, gained {formatCount(changes.data.summary.gainedTools)}
            </button>
          ) : (
            <span className="text-muted">{changes.isError ? "Not available" : "Counting…"}</span>
          )}
        </Glance>
      </section>

      <Tabs label={`${identity.name} sections`} items={items} value={tab} onChange={setTab}>
        {tab === "budget" && <BudgetPanel identity={identity} />}
        {tab === "sources" && <IdentitySources identity={identity} />}
        {tab === "holdings" && <HoldingsTable identity={identity} />}
        {tab === "confusable" && <ConfusableTools identity={identity} />}
        {tab === "lost" && <LostRecently identityId={identity.id} />}
        {tab === "calls" && <IdentityCalls identityId={identity.id} />}
        {tab === "memory" && (
          <div className="space-y-4">
            <IdentityScopes identityId={identity.id} />
            <LinkFollowRates identity={identity} />
          </div>
        )}
        {tab === "tokens" && (
          <div className="space-y-4">
            <AgentTokens identity={identity} />
            <OAuthGrants identity={identity} />
          </div>
        )}
        {tab === "settings" && <IdentitySettings key={identity.id} identity={identity} />}
      </Tabs>
    </>
  );
}

/** The selected tab, kept in ?tab= so a section can be linked. */
function useTabParam(): [Tab, (tab: Tab) => void] {
  const [params, setParams] = useUrlState(["tab"] as const);
  const tab: Tab = (TABS as readonly string[]).includes(params.tab) ? (params.tab as Tab) : "budget";
  return [tab, (next: Tab) => setParams({ tab: next === "budget" ? null : next })];
}

function Glance({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0 text-sm">
      <p className="text-xs font-medium uppercase tracking-wide text-muted">{label}</p>
      <p className="mt-1">{children}</p>
    </div>
  );
}

function Labelled({ text, count, danger }: { text: string; count?: number; danger?: boolean }) {
  return (
    <>
      {text}
      {/* A space keeps "Sources 2" two words in the tab's accessible name. */}
      {count !== undefined && " "}
      {count !== undefined && (
        <span
          className={
            danger && count > 0
              ? "rounded-full bg-danger-soft px-1.5 text-xs text-danger"
              : "rounded-full bg-surface-2 px-1.5 text-xs text-muted"
          }
        >
          {formatCount(count)}
        </span>
      )}
    </>
  );
}
