/**
 * Real Quartermaster instances, each `scripts/start.ts` in a process of its own as `npm
 * start` runs it (production build, Next.js, scheduler), on one PostgreSQL database: for
 * the several-instances test and `npm run bench:instances`. They need a build (`ensureBuilt`).
 */
import { buildIfNeeded } from "@/scripts/build-if-needed";
import { ROOT, type SpawnedServer, spawnServer } from "./spawn-server";

export { freePort } from "./spawn-server";

export function ensureBuilt(): void {
  buildIfNeeded(ROOT);
}

export interface Instance extends SpawnedServer {
  name: string;
}

export interface InstanceOptions {
  name: string;
  databaseUrl: string;
  /** The URL clients use (the balancer's): sign-in cookies and origin checks. */
  baseUrl?: string;
  env?: Record<string, string>;
}

export async function startInstance(options: InstanceOptions): Promise<Instance> {
  const server = await spawnServer({
    name: options.name,
    baseUrl: options.baseUrl,
    removeDataOnExit: true,
    env: {
      DATABASE_URL: options.databaseUrl,
      QM_TRUSTED_PROXIES: "127.0.0.1",
      QM_SCHEDULER: "1",
      QM_BUILD: "0",
      LOG_LEVEL: "info",
      ...options.env,
    },
  });
  return { name: options.name, ...server };
}
