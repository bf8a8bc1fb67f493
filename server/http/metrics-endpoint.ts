/**
 * GET /api/metrics: this instance's Prometheus metrics, for a scraper holding an API key
 * (Settings → API keys; any role). Metrics name no identity, Tool or Source, but their
 * counts still describe the installation, so they are not public.
 */
import { authenticateApiKey } from "../domain/api-keys/api-keys";
import { renderMetrics } from "../observability/metrics";
import { bearerToken } from "../tokens";
import { problem } from "./problem";

export async function handleMetrics(request: Request): Promise<Response> {
  const key = bearerToken(request.headers.get("authorization"));
  const actor = key ? await authenticateApiKey(key) : null;
  if (!actor)
    return problem(
      401,
      "UNAUTHENTICATED",
      "Send an API key as Authorization: Bearer <key> (Settings → API keys in the console).",
      undefined,
      { "www-authenticate": 'Bearer realm="quartermaster"', "cache-control": "no-store" },
    );
  return new Response(renderMetrics(), {
    headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" },
  });
}
