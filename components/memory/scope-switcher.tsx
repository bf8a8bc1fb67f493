"use client";

import { Settings2 } from "lucide-react";
import Link from "next/link";
import { Select } from "@/components/ui/field";
import { formatCount } from "@/components/ui/format";
import type { ScopeItem } from "./types";

/** Which scope the page shows. Shared by every memory page; the choice is remembered. */
export function ScopeSwitcher({
  scopes,
  value,
  onChange,
}: {
  scopes: ScopeItem[];
  value: string;
  onChange: (id: string) => void;
}) {
  return (
    <div className="flex min-w-0 max-w-full items-center gap-2" data-testid="scope-switcher">
      <label htmlFor="memory-scope" className="text-sm font-medium text-muted">
        Scope
      </label>
      <Select
        id="memory-scope"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="w-56 min-w-0 max-w-full"
      >
        {!value && <option value="">Choose a scope…</option>}
        {scopes.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name} ({formatCount(s.memories)})
          </option>
        ))}
      </Select>
      <Link
        href="/memory/scopes"
        className="inline-flex items-center rounded-md p-2 text-muted hover:bg-surface-2 hover:text-fg"
        title="Manage scopes"
      >
        <Settings2 className="size-4" aria-hidden />
        <span className="sr-only">Manage scopes</span>
      </Link>
    </div>
  );
}
