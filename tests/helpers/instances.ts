/**
 * Real Quartermaster instances, each `scripts/start.ts` in a process of its own as `npm
 * start` runs it (production build, Next.js, scheduler), on one PostgreSQL database: for
 * the several-instances test and `npm run bench:instances`. They need a build (`ensureBuilt`).
 */
import { existsSync } from "node:fs";
import path from "node:path";
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
  /**
   * CPUs to pin it to (taskset's list, "0" or "0,1"), in a process group of its own, so
   * instances compete as separate machines' would rather than for one scheduler's share.
   * Ignored where there is no taskset.
   */
  cpus?: string;
}

const TASKSET = "/usr/bin/taskset";

/** Whether instances can be pinned to CPUs here (Linux with util-linux's taskset). */
export const canPinCpus = existsSync(TASKSET);

export async function startInstance(options: InstanceOptions): Promise<Instance> {
  const pinned = options.cpus !== undefined && canPinCpus;
  const server = await spawnServer({
    name: options.name,
    ...(pinned
      ? {
          command: TASKSET,
          args: ["-c", options.cpus ?? "", process.execPath, "--import", "tsx", path.join(ROOT, "scripts/start.ts")],
          ownProcessGroup: true,
        }
      : {}),
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
