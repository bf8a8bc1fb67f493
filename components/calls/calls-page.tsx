"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useCan } from "@/components/layout/current-user";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import { ClearFilters, FilterBar, FilterInput, FilterSelect } from "@/components/ui/filter-bar";
import { PageHeader } from "@/components/ui/page-header";
import { useUrlState } from "@/components/ui/use-url-state";
import { CallsTable } from "./calls-table";
import { type CallOutcome, OUTCOME_LABELS } from "./labels";

const OUTCOMES = Object.keys(OUTCOME_LABELS) as CallOutcome[];
const KEYS = ["identity", "source", "toolId", "tool", "outcome", "code"] as const;

/** Tools → Calls: every Tool Call through /mcp, filtered by what the URL says. */
export function CallsPage() {
  const [filters, setFilters] = useUrlState(KEYS);
  const outcome = OUTCOMES.includes(filters.outcome as CallOutcome) ? (filters.outcome as CallOutcome) : undefined;
  const query = {
    identityId: filters.identity || undefined,
    sourceId: filters.source || undefined,
    toolId: filters.toolId || undefined,
    tool: filters.tool || undefined,
    outcome,
    failureCode: filters.code || undefined,
  };
  const narrowed = Object.values(query).some(Boolean);
  const clear = () => setFilters(Object.fromEntries(KEYS.map((k) => [k, null])));
  return (
    <>
      <PageHeader
        title="Calls"
        description="Every Tool Call agents made through /mcp: who, which Tool, how it ended, how long it took. Arguments and results are kept only where an admin turned on payload capture."
        actions={<RetentionSetting />}
      />
      <FilterBar className="mb-1">
        <FilterInput
          id="calls-tool"
          label="Tool name"
          placeholder="Tool name, exactly"
          value={filters.tool}
          onValue={(v) => setFilters({ tool: v.trim() })}
          className="w-56"
          type="text"
        />
        <FilterSelect
          id="calls-outcome"
          label="Outcome"
          value={outcome ?? ""}
          onValue={(v) => setFilters({ outcome: v })}
          className="w-40"
        >
          <option value="">Any outcome</option>
          {OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {OUTCOME_LABELS[o]}
            </option>
          ))}
        </FilterSelect>
        <FilterInput
          id="calls-code"
          label="Failure code"
          placeholder="Failure code, e.g. RATE_LIMITED"
          value={filters.code}
          onValue={(v) => setFilters({ code: v.trim().toUpperCase() })}
          className="w-64"
          type="text"
        />
        {(filters.identity || filters.source || filters.toolId) && (
          <span className="self-center text-sm text-muted">
            {[filters.identity && "one identity", filters.source && "one Source", filters.toolId && "one Tool"]
              .filter(Boolean)
              .join(", ")}
          </span>
        )}
        <ClearFilters shown={narrowed} onClear={clear} />
      </FilterBar>
      <CallsTable filters={query} unfiltered={{}} narrowed={narrowed} onClearFilters={clear} />
    </>
  );
}

function RetentionSetting() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isAdmin = useCan("admin");
  const settings = useQuery(trpc.calls.settings.queryOptions());
  const [editing, setEditing] = useState<string | null>(null);
  const save = useMutation(
    trpc.calls.setSettings.mutationOptions({
      onSuccess: () => {
        setEditing(null);
        return queryClient.invalidateQueries({ queryKey: trpc.calls.settings.queryKey() });
      },
    }),
  );
  if (!settings.data) return null;
  if (editing === null)
    return (
      <span className="flex items-center gap-2 text-sm text-muted" data-testid="call-retention">
        Kept {settings.data.retentionDays} days
        {isAdmin && (
          <Button variant="ghost" size="sm" onClick={() => setEditing(String(settings.data.retentionDays))}>
            Change
          </Button>
        )}
      </span>
    );
  return (
    <form
      className="flex items-center gap-2 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ retentionDays: Number(editing) });
      }}
    >
      <label htmlFor="call-retention-days">Keep calls for</label>
      <Input
        id="call-retention-days"
        type="number"
        min={1}
        value={editing}
        onChange={(e) => setEditing(e.target.value)}
        className="w-20"
      />
      days
      <Button type="submit" size="sm" disabled={save.isPending}>
        Save
      </Button>
      <Button variant="ghost" size="sm" onClick={() => setEditing(null)}>
        Cancel
      </Button>
      {save.isError && (
        <span role="alert" className="text-danger">
          {save.error.message}
        </span>
      )}
    </form>
  );
}
