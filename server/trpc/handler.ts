import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { trustedOrigins } from "../auth";
import { problem } from "../http/problem";
import { log } from "../log";
import { createContext, requestIdOf } from "./context";
import { appRouter } from "./root";

export const TRPC_ENDPOINT = "/api/trpc";

/**
 * Cookie-authenticated writes must come from the console's own origin. API-key
 * requests carry their credential in a header a browser never adds by itself.
 * The origin is QM_BASE_URL's, not the Host the request names: a proxy may drop the
 * port from Host (nginx's `$host`), and a rebound DNS name makes Host whatever the
 * attacker's page is served as.
 */
export function crossSiteWrite(req: Request): boolean {
  if (req.method !== "POST" || req.headers.get("authorization")) return false;
  const origin = req.headers.get("origin");
  if (!origin) return false;
  return !trustedOrigins().includes(origin);
}

export async function handleTrpcRequest(req: Request): Promise<Response> {
  if (crossSiteWrite(req)) {
    return problem("FORBIDDEN", "Cross-site request refused: the Origin does not match this console.");
  }
  const requestId = requestIdOf(req.headers);
  const response = await fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req,
    router: appRouter,
    createContext: () => createContext(req.headers, requestId),
    onError({ error, path, ctx }) {
      if (error.code === "INTERNAL_SERVER_ERROR") {
        (ctx?.log ?? log).error({ err: error.cause ?? error, path, requestId }, "tRPC procedure failed");
      }
    },
  });
  response.headers.set("x-request-id", requestId);
  return response;
}
