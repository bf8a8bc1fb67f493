import Link from "next/link";
import { Card, CardHeader } from "@/components/ui/card";
import { Facts } from "@/components/ui/facts";
import { formatBytes, formatCount } from "@/components/ui/format";
import { Table, Td, Th } from "@/components/ui/table";
import { BudgetBar } from "./budget-bar";
import { BudgetHistoryChart } from "./budget-history-chart";
import { formatPercent, toolCount } from "./labels";
import { ListingCard } from "./listing-card";
import type { IdentityView } from "./types";

const LARGEST = 5;

/** Where the budget goes, and how much more fits, in reference-Tool terms a person can plan with. */
export function BudgetPanel({ identity }: { identity: IdentityView }) {
  const { budget, estimate } = identity;
  const over = budget.overByBytes > 0;
  const largestSources = identity.sources.filter((s) => s.bytes > 0).slice(0, LARGEST);
  const share = (bytes: number) => formatPercent(bytes, budget.limitBytes);

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Definition budget"
          description="Every held Tool's model-facing definition (name, description, input schema) plus the instructions byte for byte, as agents receive them at /mcp."
        />
        <div className="space-y-5 p-4">
          <BudgetBar budget={budget} size="lg" legend label={`Budget used by ${identity.name}`} />
          <BudgetHistoryChart identity={identity} />
          <Facts
            className="lg:grid-cols-4"
            items={[
              { label: "Used", value: <span className="tabular-nums">{formatBytes(budget.usedBytes)}</span> },
              {
                label: "Tool definitions",
                value: (
                  <span className="tabular-nums">
                    {formatBytes(budget.toolsBytes)} · {toolCount(identity.tools)}
                  </span>
                ),
              },
              {
                label: "Instructions",
                value: <span className="tabular-nums">{formatBytes(budget.instructionsBytes)}</span>,
              },
              over
                ? {
                    label: "Over by",
                    value: (
                      <span className="font-semibold tabular-nums text-danger">{formatBytes(budget.overByBytes)}</span>
                    ),
                  }
                : { label: "Free", value: <span className="tabular-nums">{formatBytes(budget.freeBytes)}</span> },
            ]}
          />
          <div className="rounded-md bg-surface-2 px-4 py-3 text-sm" data-testid="planning-estimate">
            {over ? (
              <p className="font-medium">No more Tools fit until it is back under its budget.</p>
            ) : (
              <p className="font-medium">
                About {formatCount(estimate.small)} more small, {formatCount(estimate.mid)} mid-sized or{" "}
                {formatCount(estimate.large)} large Tools fit.
              </p>
            )}
            <p className="mt-1 text-muted">
              A planning estimate against reference Tools: a small one (about{" "}
              {formatBytes(identity.referenceToolBytes.small)}) has 3 parameters and a short description; a mid-sized
              one (about {formatBytes(identity.referenceToolBytes.mid)}) 6 briefly described parameters; a large one
              (about {formatBytes(identity.referenceToolBytes.large)}) 10 parameters and a 1,000-character description.
              Real Tools vary, so the exact size of a Source is shown before it is assigned.
            </p>
          </div>
        </div>
      </Card>
      <ListingCard identity={identity} />

      <div className="grid gap-6 xl:grid-cols-2">
        <section aria-labelledby="largest-sources" className="min-w-0">
          <h2 id="largest-sources" className="mb-2 text-sm font-semibold">
            Largest Sources
          </h2>
          {largestSources.length === 0 ? (
            <p className="rounded-lg border border-dashed border-border px-4 py-6 text-center text-sm text-muted">
              No Source adds anything yet.
            </p>
          ) : (
            <Table aria-label="Largest Sources">
              <thead>
                <tr>
                  <Th>Source</Th>
                  <Th className="text-right">Tools</Th>
                  <Th className="text-right">Size</Th>
                  <Th className="text-right">Of budget</Th>
                </tr>
              </thead>
              <tbody>
                {largestSources.map((s) => (
                  <tr key={s.sourceId}>
                    <Td>
                      <Link href={`/tools/sources/${s.sourceId}`} className="font-medium text-accent hover:underline">
                        {s.name}
                      </Link>
                    </Td>
                    <Td className="text-right tabular-nums">{formatCount(s.tools)}</Td>
                    <Td className="text-right tabular-nums">{formatBytes(s.bytes)}</Td>
                    <Td className="text-right tabular-nums text-muted">{share(s.bytes)}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </section>
        <section aria-labelledby="largest-tools" className="min-w-0">
          <h2 id="largest-tools" className="mb-2 text-sm font-semibold">
            Largest Tools
          </h2>
          {identity.largestTools.length === 0 ? (
            <p className="rounded-lg border border-dashed border-border px-4 py-6 text-center text-sm text-muted">
              It holds no Tools yet.
            </p>
          ) : (
            <Table aria-label="Largest Tools">
              <thead>
                <tr>
                  <Th>Tool</Th>
                  <Th>Source</Th>
                  <Th className="text-right">Size</Th>
                  <Th className="text-right">Of budget</Th>
                </tr>
              </thead>
              <tbody>
                {identity.largestTools.slice(0, LARGEST * 2).map((t) => (
                  <tr key={t.id}>
                    <Td className="max-w-56">
                      <Link
                        href={`/tools/catalog/${t.id}`}
                        className="block truncate font-mono text-xs text-accent hover:underline"
                        title={t.modelFacingName ?? t.nativeName}
                      >
                        {t.modelFacingName ?? t.nativeName}
                      </Link>
                    </Td>
                    <Td className="text-muted">{t.sourceName}</Td>
                    <Td className="text-right tabular-nums">{formatBytes(t.bytes)}</Td>
                    <Td className="text-right tabular-nums text-muted">{share(t.bytes)}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </section>
      </div>
    </div>
  );
}
