"use client";

import Link from "next/link";
import { useCallback } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Badge, type Tone } from "@/components/ui/badge";
import { Dialog } from "@/components/ui/dialog";
import { FilterBar, FilterInput } from "@/components/ui/filter-bar";
import { EmptyState } from "@/components/ui/states";
import { useUrlSearch, useUrlState } from "@/components/ui/use-url-state";
import { ListBody, ListStatus } from "@/components/ui/virtual-list/list-states";
import { useBlockList } from "@/components/ui/virtual-list/use-block-list";
import { type Column, VirtualTable } from "@/components/ui/virtual-list/virtual-table";

const KIND: Record<string, { label: string; tone: Tone }> = {
  added: { label: "Added", tone: "ok" },
  removed: { label: "Removed", tone: "danger" },
  changed: { label: "Changed", tone: "warn" },
  became_incompatible: { label: "Became incompatible", tone: "danger" },
  became_compatible: { label: "Became compatible", tone: "ok" },
};

type Change = { id: string; kind: string; nativeName: string; modelFacingName: string | null };

const HEIGHT = "h-[min(60dvh,32rem)] min-h-64";

const COLUMNS: Column<Change>[] = [
  {
    key: "tool",
    header: "Tool",
    cell: (c) => (
      <>
        <span className="block truncate font-mono text-xs" title={c.nativeName}>
          {c.nativeName}
        </span>
        {c.modelFacingName && c.modelFacingName !== c.nativeName && (
          <span className="block truncate text-xs text-muted" title={c.modelFacingName}>
            model-facing: {c.modelFacingName}
          </span>
        )}
      </>
    ),
  },
  {
    key: "kind",
    header: "Change",
    width: "w-48",
    cell: (c) => <Badge tone={KIND[c.kind]?.tone ?? "neutral"}>{KIND[c.kind]?.label ?? c.kind}</Badge>,
  },
];

/**
 * The check (or registration) whose changes are shown, kept in ?check= so the dialog
 * can be linked, with its search in ?cq=.
 */
export function useShownCheck() {
  const [params, setParams] = useUrlState(["check", "cq"] as const);
  const show = useCallback((checkId: string) => setParams({ check: checkId, cq: null }), [setParams]);
  const close = useCallback(() => setParams({ check: null, cq: null }), [setParams]);
  return { checkId: params.check || null, show, close };
}

/** The Tools one check (or registration) added, removed or changed. */
export function CheckChangesDialog() {
  const shown = useShownCheck();
  return (
    <Dialog open={Boolean(shown.checkId)} onClose={shown.close} title="What this check changed" wide>
      {shown.checkId && <CheckChanges checkId={shown.checkId} />}
    </Dialog>
  );
}

function CheckChanges({ checkId }: { checkId: string }) {
  const trpc = useTRPC();
  const [params, setParams] = useUrlState(["cq"] as const);
  const [search, setSearch] = useUrlSearch(params.cq, setParams, "cq");
  const narrowed = Boolean(params.cq);
  const changes = useBlockList(
    trpc.sources.checkChanges,
    { checkId, search: params.cq || undefined },
    // What a finished check changed never changes.
    { unfiltered: { checkId }, refresh: { version: checkId } },
  );
  return (
    <div className="space-y-2">
      <FilterBar className="">
        <FilterInput
          id="check-changes-search"
          label="Search changed Tools"
          placeholder="Search Tool name…"
          value={search}
          onValue={setSearch}
          className="w-full"
        />
      </FilterBar>
      <ListStatus list={changes} noun={["change", "changes"]} narrowed={narrowed} testId="check-changes-total" />
      <ListBody
        list={changes}
        narrowed={narrowed}
        onClearFilters={() => {
          setSearch("");
          setParams({ cq: null });
        }}
        loadingLabel="Loading changes"
        frameClassName={HEIGHT}
        empty={<EmptyState title="This check changed no Tools" />}
        noMatch={{ title: "No changed Tool matches", body: "Try a shorter search." }}
      >
        <VirtualTable
          label="Changed Tools"
          columns={COLUMNS}
          list={changes}
          rowHeight={48}
          rowTestId="check-change-row"
          scrollTestId="check-changes"
          className={HEIGHT}
          minWidth="min-w-[28rem]"
        />
      </ListBody>
      <p className="text-xs text-muted">
        Identities holding this Source show these as gains or losses under{" "}
        <Link href="/agents" className="underline">
          Agents
        </Link>
        .
      </p>
    </div>
  );
}
