/**
 * Real Quartermaster instances, each `scripts/start.ts` in a process of its own as `npm
 * start` runs it (production build, Next.js, scheduler), on one PostgreSQL database: for
 * the several-instances test and `npm run bench:instances`. They need a build (`ensureBuilt`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { buildIfNeeded } from "@/scripts/build-if-needed";

const ROOT = path.resolve(import.meta.dirname, "../..");

export function ensureBuilt(): void {
  buildIfNeeded(ROOT);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface Instance {
  name: string;
  url: string;
  pid: number;
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  waitReady(timeoutMs?: number): Promise<void>;
  ready(): Promise<boolean>;
  stop(): Promise<void>;
}

export interface InstanceOptions {
  name: string;
  databaseUrl: string;
  /** The URL clients use (the balancer's): sign-in cookies and origin checks. */
  baseUrl?: string;
  env?: Record<string, string>;
}

export async function startInstance(options: InstanceOptions): Promise<Instance> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "qm-instance-"));
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/start.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: options.databaseUrl,
      QM_DATA_DIR: dataDir,
      QM_BASE_URL: options.baseUrl ?? `http://127.0.0.1:${port}`,
      QM_TRUSTED_PROXIES: "127.0.0.1",
      QM_DEMO: "0",
      QM_SCHEDULER: "1",
      QM_BUILD: "0",
      LOG_LEVEL: "info",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  void exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
  const url = `http://127.0.0.1:${port}`;
  const ready = () =>
    fetch(`${url}/api/ready`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.status === 200,
      () => false,
    );
  return {
    name: options.name,
    url,
    pid: child.pid ?? 0,
    child,
    output: () => out,
    exited,
    ready,
    async waitReady(timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`${options.name} exited (${child.exitCode}):\n${out}`);
        if (await ready()) return;
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error(`${options.name} never became ready:\n${out}`);
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
