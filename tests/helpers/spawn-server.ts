/**
 * A server in a process of its own, on a free loopback port and a fresh data folder (an
 * embedded database may be opened by one process only): `npm start` itself, scripts/start.ts
 * as npm start runs it, or a test's own server script. The one place tests and benchmarks
 * spawn a server, so each says only what differs (its command and its environment).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");

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

/** SIGTERM, then SIGKILL if it has not exited after `killAfterMs`; resolves once it has exited. */
export async function stopProcess(child: ChildProcess, exited: Promise<unknown>, killAfterMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  await exited;
  clearTimeout(timer);
}

export interface SpawnedServer {
  url: string;
  pid: number;
  /** Its QM_DATA_DIR (the demo's admin credentials are written there). */
  dataDir: string;
  child: ChildProcess;
  /** What the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Whether /api/ready answers 200 now. */
  ready(): Promise<boolean>;
  waitReady(timeoutMs?: number): Promise<void>;
  /** SIGTERM (SIGKILL after 30 s) and the data folder removed. */
  stop(): Promise<void>;
}

export interface SpawnOptions {
  /** A name for error messages. */
  name: string;
  /** The program and its arguments; by default node running scripts/start.ts through tsx. */
  command?: string;
  args?: string[];
  /** Added to (and overriding) the production environment every spawned server gets. */
  env?: Record<string, string>;
  /** The URL clients use, when it is not the server's own (a balancer in front). */
  baseUrl?: string;
  /** Remove the data folder as soon as the process exits (else on stop()). */
  removeDataOnExit?: boolean;
  /** Leader of a process group of its own (a signal to the runner's group does not reach it). */
  ownProcessGroup?: boolean;
}

export async function spawnServer(options: SpawnOptions): Promise<SpawnedServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `qm-${options.name.replace(/\W+/g, "-")}-`));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    options.command ?? process.execPath,
    options.args ?? ["--import", "tsx", path.join(ROOT, "scripts/start.ts")],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        QM_DATA_DIR: dataDir,
        QM_BASE_URL: options.baseUrl ?? url,
        QM_DEMO: "0",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: options.ownProcessGroup ?? false,
    },
  );
  let out = "";
  const keep = (c: Buffer) => {
    out += c.toString();
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const removeData = () => rmSync(dataDir, { recursive: true, force: true });
  if (options.removeDataOnExit) void exited.then(removeData);
  const ready = () =>
    fetch(`${url}/api/ready`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.status === 200,
      () => false,
    );
  return {
    url,
    pid: child.pid ?? 0,
    dataDir,
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
      await stopProcess(child, exited, 30_000);
      removeData();
    },
  };
}
