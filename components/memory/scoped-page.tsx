"use client";

import { FolderTree } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { useCan } from "@/components/layout/current-user";
import { Callout } from "@/components/ui/callout";
import { PageHeader } from "@/components/ui/page-header";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { ScopeSwitcher } from "./scope-switcher";
import type { ScopeItem } from "./types";
import { useMemoryScope } from "./use-memory-scope";

/**
 * A memory page: its header with the scope switcher, and its content for the chosen
 * scope. Loading, no scopes at all and an unknown scope in the address are handled here,
 * once for every memory page.
 */
export function ScopedPage({
  title,
  description,
  actions,
  loadingLabel,
  children,
}: {
  title: string;
  description: ReactNode;
  actions?: (scope: ScopeItem) => ReactNode;
  loadingLabel: string;
  children: (scope: ScopeItem) => ReactNode;
}) {
  const { scopes, scope, missing, setScope } = useMemoryScope();
  const canCreate = useCan("curator");
  const switcher = scopes.data && scopes.data.length > 0 && (
    <ScopeSwitcher scopes={scopes.data} value={scope?.id ?? ""} onChange={setScope} />
  );
  return (
    <>
      <PageHeader
        title={title}
        description={description}
        actions={
          (switcher || scope) && (
            <>
              {scope && actions?.(scope)}
              {switcher}
            </>
          )
        }
      />
      {missing && (
        <Callout tone="warn" className="mb-4" title="That scope is not there to read" data-testid="scope-missing">
          The address names a scope that does not exist or that you cannot read.{" "}
          {scope && `Showing “${scope.name}” instead.`}
        </Callout>
      )}
      <QueryView
        query={scopes}
        loadingLabel={loadingLabel}
        empty={
          <EmptyState
            title="No scopes yet"
            icon={<FolderTree className="size-8" />}
            action={
              canCreate && (
                <Link href="/memory/scopes?new=1" className="font-medium text-accent underline underline-offset-2">
                  Create a scope
                </Link>
              )
            }
          >
            Every memory, thread and proposal lives in a scope: an exclusive partition, such as one per team or project.
            {!canCreate && " Creating one needs the curator role."}
          </EmptyState>
        }
      >
        {() => (scope ? children(scope) : null)}
      </QueryView>
    </>
  );
}
