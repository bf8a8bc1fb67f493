/**
 * Starts the demo's SDK Tool Host (server/demo/billing-host.ts) as a child process beside
 * the app, the way the demo MCP server is started: loopback only, a minimal environment
 * (the host gets Quartermaster's address and its own token, none of the app's secrets).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { applyDemoCallPolicies } from "../domain/demo/call-policies";
import { log } from "../log";

export interface DemoToolHost {
  stop(): Promise<void>;
}

const ENTRY = path.join(import.meta.dirname, "billing-host.ts");
const SDK_BUILD = path.resolve(import.meta.dirname, "../../sdk/dist/index.js");

/** The app's address as a process on this machine reaches it (a wildcard listen address is not one). */
export function loopbackUrl(serverUrl: string): string {
  const url = new URL(serverUrl);
  if (url.hostname === "0.0.0.0") url.hostname = "127.0.0.1";
  if (url.hostname === "[::]") url.hostname = "[::1]";
  return url.origin;
}

export async function startDemoToolHost(options: {
  url: string;
  token: string;
  readyTimeoutMs?: number;
}): Promise<DemoToolHost | null> {
  if (!existsSync(SDK_BUILD)) {
    log.warn("The Tool Host SDK is not built (sdk/dist): run `npm run build:sdk` to start the demo's SDK Tool Host.");
    return null;
  }
  const env: Record<string, string> = { QM_URL: loopbackUrl(options.url), QM_HOST_TOKEN: options.token };
  for (const name of ["PATH", "HOME", "TMPDIR", "NODE_ENV"]) {
    const value = process.env[name];
    if (value) env[name] = value;
  }
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", ENTRY], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const forward = (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n"))
      if (line.trim()) log.debug({ demoToolHost: line }, "demo SDK Tool Host");
  };
  child.stdout?.on("data", forward);
  child.stderr?.on("data", forward);
  let stopping = false;
  child.once("exit", (code, signal) => {
    if (!stopping) log.warn({ code, signal }, "the demo SDK Tool Host exited");
  });

  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), options.readyTimeoutMs ?? 30_000);
    child.on("message", (message: { type?: string }) => {
      if (message?.type === "ready") {
        clearTimeout(timer);
        resolve(true);
      }
    });
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  if (!ready) log.warn("the demo SDK Tool Host did not register in time; its Tools may appear a little later");
  // Its destructive Tools under confirm and approve, once they exist (the first start).
  else
    await applyDemoCallPolicies().catch((error: unknown) =>
      log.warn({ err: error }, "could not put the demo's destructive Tools under their call policies"),
    );

  return {
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        // close() waits up to 10 s for calls in flight; then it is only a demo.
        setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
      }),
  };
}
