import { checkHealth } from "@/server/domain/system/health";

export const dynamic = "force-dynamic";

/**
 * Liveness: 200 whenever the process answers, so an orchestrator restarts it only when it
 * is stuck, never because the shared database blinked (restarting every instance would not
 * help). Whether it should get traffic is /api/ready; the body says the same things.
 */
export async function GET() {
  const health = await checkHealth();
  return Response.json(health, { status: 200, headers: { "cache-control": "no-store" } });
}
