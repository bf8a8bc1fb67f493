"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Bot, Plus } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { cn } from "@/components/ui/cn";
import { ClearFilters, FilterBar, FilterInput, FilterSelect } from "@/components/ui/filter-bar";
import { formatCount } from "@/components/ui/format";
import { MoreDetails, WIDE_ONLY } from "@/components/ui/more-details";
import { PageHeader } from "@/components/ui/page-header";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";
import { useUrlSearch, useUrlState } from "@/components/ui/use-url-state";
import { LIMITS } from "@/universal/limits";
import { BudgetBar } from "./budget-bar";
import { ClientRegistrationCard } from "./client-registration-card";
import { CreateIdentityDialog } from "./create-identity-dialog";
import { IdentityStateBadge } from "./identity-state-badge";

const STATES = [
  { value: "", label: "All states" },
  { value: "over_budget", label: "Over budget" },
  { value: "ok", label: "Within budget" },
] as const;

// Catalog growth can push an identity over its budget at any time; polling keeps this page honest.
const REFRESH_MS = 30_000;

export function IdentitiesPage() {
  const trpc = useTRPC();
  const canWrite = useCan("operator");
  const [filters, setFilters] = useUrlState(["q", "state"] as const);
  const [search, setSearch] = useUrlSearch(filters.q, setFilters);
  const [creating, setCreating] = useState(false);

  const state = filters.state === "over_budget" || filters.state === "ok" ? filters.state : undefined;
  const identities = useQuery({
    ...trpc.identities.list.queryOptions({ search: filters.q || undefined, state }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const filtered = Boolean(filters.q || state);
  const overBudget = identities.data?.filter((i) => i.state === "over_budget") ?? [];

  const createButton = canWrite && (
    <Button onClick={() => setCreating(true)}>
      <Plus className="size-4" aria-hidden /> New identity
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Agent Identities"
        description="What each agent connects to /mcp as: the Tools it holds from its Sources, within a budget of 4 MiB of Tool definitions and instructions."
        actions={createButton}
      />
      {!state && overBudget.length > 0 && (
        <Callout
          tone="danger"
          className="mb-4"
          title={`${formatCount(overBudget.length)} ${overBudget.length === 1 ? "identity is" : "identities are"} over budget`}
          data-testid="over-budget-summary"
        >
          Their agents are refused until each is back under its budget.{" "}
          <button
            type="button"
            className="font-medium text-danger underline underline-offset-2"
            onClick={() => setFilters({ state: "over_budget" })}
          >
            Show only those
          </button>
        </Callout>
      )}
      <FilterBar>
        <FilterInput
          id="identities-search"
          label="Search identities by name"
          placeholder="Search by name…"
          value={search}
          onValue={setSearch}
        />
        <FilterSelect
          id="identities-state"
          label="Budget state"
          value={state ?? ""}
          onValue={(v) => setFilters({ state: v })}
          className="w-44"
          options={STATES}
        />
        <ClearFilters
          shown={filtered}
          onClear={() => {
            setSearch("");
            setFilters({ q: null, state: null });
          }}
        />
      </FilterBar>
      <QueryView
        query={identities}
        loadingLabel="Loading Agent Identities"
        empty={
          filtered ? (
            <EmptyState title="No identities match these filters">Try a broader search or another state.</EmptyState>
          ) : (
            <EmptyState title="No Agent Identities yet" icon={<Bot className="size-8" />} action={createButton}>
              An Agent Identity is what an agent signs in to <code className="font-mono">/mcp</code> as. It holds every
              Compatible Tool of the Sources you assign to it, as long as their definitions and its instructions fit in
              4 MiB.
              {!canWrite && " Creating one needs the operator role."}
            </EmptyState>
          )
        }
      >
        {(rows) => (
          <Table
            aria-label="Agent Identities"
            aria-busy={identities.isPlaceholderData}
            className={identities.isPlaceholderData ? "opacity-60" : undefined}
          >
            <thead>
              <tr>
                <Th>Name</Th>
                <Th className={cn("text-right", WIDE_ONLY)}>Sources</Th>
                <Th className={cn("text-right", WIDE_ONLY)}>Tools held</Th>
                <Th className={cn("w-72", WIDE_ONLY)}>Budget</Th>
                <Th
                  className={cn("whitespace-nowrap text-right", WIDE_ONLY)}
                  title={`Tools lost in the last ${LIMITS.LOSSES_WINDOW_DAYS.value} days, as the identity's Lost recently counts them`}
                >
                  Lost recently
                </Th>
                <Th className={WIDE_ONLY}>Failing Sources</Th>
                <Th>State</Th>
              </tr>
            </thead>
            <tbody>
              {rows.map((i) => (
                <tr key={i.id} data-testid="identity-row">
                  <Td className="max-w-sm">
                    <Link href={`/agents/${i.id}`} className="font-medium text-accent hover:underline">
                      {i.name}
                    </Link>
                    {i.description && <p className="truncate text-xs text-muted">{i.description}</p>}
                    <MoreDetails
                      items={[
                        { label: "Sources", value: formatCount(i.sources) },
                        { label: "Tools held", value: formatCount(i.tools) },
                        {
                          label: "Budget",
                          value: <BudgetBar budget={i.budget} size="sm" label={`Budget used by ${i.name}`} />,
                        },
                        {
                          label: `Lost (last ${LIMITS.LOSSES_WINDOW_DAYS.value} days)`,
                          value: formatCount(i.lostTools),
                        },
                        {
                          label: "Failing Sources",
                          value: i.failingSources.length ? i.failingSources.map((f) => f.name).join(", ") : "none",
                        },
                      ]}
                    />
                  </Td>
                  <Td className={cn("text-right tabular-nums", WIDE_ONLY)}>{formatCount(i.sources)}</Td>
                  <Td className={cn("text-right tabular-nums", WIDE_ONLY)}>{formatCount(i.tools)}</Td>
                  <Td className={WIDE_ONLY}>
                    <BudgetBar budget={i.budget} size="sm" label={`Budget used by ${i.name}`} />
                  </Td>
                  <Td className={cn("text-right tabular-nums", WIDE_ONLY)}>
                    {i.lostTools > 0 ? (
                      <Link
                        href={`/agents/${i.id}?tab=lost`}
                        className="font-medium text-danger hover:underline"
                        title={`${formatCount(i.lostTools)} Tools lost in the last ${LIMITS.LOSSES_WINDOW_DAYS.value} days`}
                      >
                        {formatCount(i.lostTools)}
                      </Link>
                    ) : (
                      <span className="text-muted">0</span>
                    )}
                  </Td>
                  <Td className={cn("max-w-56", WIDE_ONLY)}>
                    {i.failingSources.length === 0 ? (
                      <span className="text-muted">none</span>
                    ) : (
                      <ul className="space-y-0.5 text-sm">
                        {i.failingSources.map((s) => (
                          <li key={s.id} className="truncate">
                            <Link
                              href={`/tools/sources/${s.id}`}
                              className={
                                s.state === "failing" ? "text-danger hover:underline" : "text-warn hover:underline"
                              }
                            >
                              {s.name}
                            </Link>
                            {s.state === "host_silent" && <span className="text-xs text-muted"> (host silent)</span>}
                          </li>
                        ))}
                      </ul>
                    )}
                  </Td>
                  <Td>
                    <IdentityStateBadge state={i.state} failingSources={i.failingSources.map((f) => f.name)} />
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </QueryView>
      <ClientRegistrationCard />
      <CreateIdentityDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}
