/** The span and the metrics of one catalog check (its HTTP exchanges are child spans). */
import { metrics } from "../../observability/metrics";
import { withSpan } from "../../observability/tracing";
import type { CheckOutcome } from "./check";

export function observeCatalogCheck(
  sourceId: string,
  trigger: string,
  run: () => Promise<CheckOutcome>,
): Promise<CheckOutcome> {
  const t0 = performance.now();
  return withSpan(
    "catalog.check",
    { attributes: { "qm.source.id": sourceId, "qm.check.trigger": trigger } },
    async (span) => {
      let status = "broken";
      let code = "";
      try {
        const outcome = await run();
        status = outcome.status;
        code = outcome.failure?.code ?? "";
        span.set({
          "qm.check.id": outcome.checkId,
          "qm.check.status": status,
          "qm.check.pages": outcome.pages,
          "qm.check.tools": outcome.tools,
          ...(code ? { "qm.check.failure_code": code } : {}),
        });
        if (status === "failed") span.fail(code);
        return outcome;
      } finally {
        metrics.catalogChecks.inc({ outcome: status, code });
        metrics.catalogCheckSeconds.observe({ outcome: status }, (performance.now() - t0) / 1000);
      }
    },
  );
}
