"use client";

import { Eye, EyeOff, Plus, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";

export interface HeaderRow {
  key: number;
  name: string;
  value: string;
}

let nextKey = 1;
export const newHeaderRow = (): HeaderRow => ({ key: nextKey++, name: "", value: "" });

/**
 * The rows as the API wants them, or the first problem in words. Fully blank rows are
 * ignored so an unused "add" row never blocks saving.
 */
export function headersFromRows(rows: HeaderRow[]): { headers: Record<string, string>; error: string | null } {
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [i, row] of rows.entries()) {
    const name = row.name.trim();
    if (!name && !row.value) continue;
    if (!name) return { headers, error: `Header ${i + 1} has a value but no name.` };
    if (seen.has(name.toLowerCase())) return { headers, error: `The header “${name}” is listed twice.` };
    seen.add(name.toLowerCase());
    headers[name] = row.value;
  }
  return { headers, error: null };
}

/** Auth header rows (name + secret value). Values are typed, never shown back by the server. */
export function HeadersEditor({
  rows,
  onChange,
  legend,
  hint,
  error,
}: {
  rows: HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
  legend: string;
  hint?: string;
  error?: string | null;
}) {
  const id = useId();
  const [reveal, setReveal] = useState(false);
  const update = (key: number, patch: Partial<HeaderRow>) =>
    onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;

  return (
    <fieldset className="space-y-2" aria-describedby={describedBy}>
      <legend className="mb-1.5 text-sm font-medium">{legend}</legend>
      {rows.map((row, i) => (
        <div key={row.key} className="flex items-center gap-2">
          <Input
            aria-label={`Header ${i + 1} name`}
            placeholder="Authorization"
            value={row.name}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => update(row.key, { name: e.target.value })}
            className="w-2/5 font-mono"
            aria-invalid={error ? true : undefined}
          />
          <Input
            aria-label={`Header ${i + 1} value`}
            placeholder="Bearer …"
            type={reveal ? "text" : "password"}
            value={row.value}
            // A password manager must not offer to save or fill an API credential.
            autoComplete="new-password"
            spellCheck={false}
            onChange={(e) => update(row.key, { value: e.target.value })}
            className="flex-1 font-mono"
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Remove header ${i + 1}`}
            onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
          >
            <Trash2 className="size-4" aria-hidden />
          </Button>
        </div>
      ))}
      <div className="flex items-center gap-2">
        <Button size="sm" variant="secondary" onClick={() => onChange([...rows, newHeaderRow()])}>
          <Plus className="size-4" aria-hidden /> Add header
        </Button>
        {rows.length > 0 && (
          <Button size="sm" variant="ghost" onClick={() => setReveal((r) => !r)} aria-pressed={reveal}>
            {reveal ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
            Show values
          </Button>
        )}
      </div>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs font-medium text-danger">
          {error}
        </p>
      )}
    </fieldset>
  );
}
