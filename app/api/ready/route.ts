import { checkHealth, isReady } from "@/server/domain/system/health";

export const dynamic = "force-dynamic";

/**
 * Readiness: 200 when this instance should get traffic (database reachable, every migration
 * this code has applied, not draining), 503 otherwise. Load balancers poll it.
 */
export async function GET() {
  const health = await checkHealth();
  const ready = isReady(health);
  return Response.json({ ready, ...health }, { status: ready ? 200 : 503, headers: { "cache-control": "no-store" } });
}
