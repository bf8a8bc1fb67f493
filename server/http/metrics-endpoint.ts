/**
 * GET /api/metrics: this instance's Prometheus metrics, for a scraper holding an API key
 * (Settings → API keys; any role). Metrics name no identity, Tool or Source, but their
 * counts still describe the installation, so they are not public.
 */
import { authenticateApiKey } from "../domain/api-keys/api-keys";
import { sourcesByState } from "../domain/sources/by-state";
import { Gauge, renderMetrics } from "../observability/metrics";
import { bearerToken } from "../tokens";
import { problem } from "./problem";

export async function handleMetrics(request: Request): Promise<Response> {
  const key = bearerToken(request.headers.get("authorization"));
  const actor = key ? await authenticateApiKey(key) : null;
  if (!actor)
    return problem(
      "UNAUTHENTICATED",
      "Send an API key as Authorization: Bearer <key> (Settings → API keys in the console).",
      undefined,
      { "www-authenticate": 'Bearer realm="quartermaster"', "cache-control": "no-store" },
    );
  const sources = (await sourcesByState()).map(({ kind, state, count }) => ({ labels: { kind, state }, value: count }));
  const bySourceState = new Gauge(
    "qm_sources",
    "Sources by kind and state (ok, failing, host_silent, never_checked, paused), across the installation.",
    () => sources,
  );
  return new Response(renderMetrics([bySourceState]), {
    headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" },
  });
}
