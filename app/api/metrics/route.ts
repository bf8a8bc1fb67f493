import { handleMetrics } from "@/server/http/metrics-endpoint";

export const dynamic = "force-dynamic";

export { handleMetrics as GET };
