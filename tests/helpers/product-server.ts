/**
 * The product's HTTP surface an SDK Tool Host and its agents use — `/mcp` and the SDK Tool
 * Host API — served by the app's own route modules (as Next.js routes them) over real HTTP
 * on a loopback port, against the test's database. `restart()` stops it, cutting every
 * connection as a dying process would, and serves again on the same port.
 */
import * as catchAll from "@/app/api/v1/tool-hosts/[...path]/route";
import * as cancelled from "@/app/api/v1/tool-hosts/calls/cancelled/route";
import * as collect from "@/app/api/v1/tool-hosts/calls/next/route";
import * as progress from "@/app/api/v1/tool-hosts/calls/progress/route";
import * as results from "@/app/api/v1/tool-hosts/calls/results/route";
import * as goodbye from "@/app/api/v1/tool-hosts/goodbye/route";
import * as heartbeat from "@/app/api/v1/tool-hosts/heartbeat/route";
import * as registration from "@/app/api/v1/tool-hosts/registration/route";
import * as mcp from "@/app/mcp/route";
import { type MethodHandlers, type SeenRequest, type ServedRoutes, serveRoutes, type WebHandler } from "./web-handler";

type RouteModule = Partial<Record<"GET" | "POST" | "PUT" | "DELETE" | "PATCH", WebHandler>>;
const methods = (module: RouteModule): MethodHandlers => {
  const { GET, POST, PUT, DELETE, PATCH } = module;
  return { GET, POST, PUT, DELETE, PATCH };
};

const ROUTES: Record<string, MethodHandlers> = {
  "/mcp": methods(mcp),
  "/api/v1/tool-hosts/registration": methods(registration),
  "/api/v1/tool-hosts/heartbeat": methods(heartbeat),
  "/api/v1/tool-hosts/calls/next": methods(collect),
  "/api/v1/tool-hosts/calls/results": methods(results),
  "/api/v1/tool-hosts/calls/cancelled": methods(cancelled),
  "/api/v1/tool-hosts/calls/progress": methods(progress),
  "/api/v1/tool-hosts/goodbye": methods(goodbye),
};
const UNKNOWN_ENDPOINT = methods(catchAll);

function route(pathname: string): MethodHandlers | undefined {
  return ROUTES[pathname] ?? (pathname.startsWith("/api/v1/tool-hosts/") ? UNKNOWN_ENDPOINT : undefined);
}

export interface ProductServer {
  url: string;
  /** Requests received since start (across restarts). */
  seen: SeenRequest[];
  stop(): Promise<void>;
  /** Serves again on the same port (after stop()). */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startProduct(): Promise<ProductServer> {
  let served: ServedRoutes | null = await serveRoutes(route);
  const port = served.port;
  const seen: SeenRequest[] = [];
  const sync = () => {
    if (served) seen.push(...served.seen.splice(0));
  };
  return {
    url: served.url,
    get seen() {
      sync();
      return seen;
    },
    async stop() {
      sync();
      await served?.close();
      served = null;
    },
    async start() {
      served = await serveRoutes(route, { port });
    },
    async close() {
      sync();
      await served?.close();
      served = null;
    },
  };
}
