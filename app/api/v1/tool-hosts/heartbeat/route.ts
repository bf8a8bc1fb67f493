import { handleHeartbeat } from "@/server/http/tool-host-api";

export const dynamic = "force-dynamic";

export { handleHeartbeat as POST };
