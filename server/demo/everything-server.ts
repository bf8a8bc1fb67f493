/**
 * The demo's live Source: the public reference MCP server from npm
 * (@modelcontextprotocol/server-everything), started on loopback beside the app by
 * everything-entry.mjs. It gets no part of Quartermaster's environment (PATH and PORT
 * only: its own Tools could otherwise read QM_SECRET or DATABASE_URL to any agent), and
 * the Tools that read the environment or fetch URLs are left out.
 */
import { type ChildProcess, fork } from "node:child_process";
import net from "node:net";
import { fileURLToPath } from "node:url";
import { log } from "../log";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export interface DemoMcpServer {
  url: string;
  /** Its process, for tests that look at what it was given. */
  pid: number;
  stop(): Promise<void>;
}

export class DemoPortTaken extends Error {
  constructor(readonly port: number) {
    super(`Port ${port} for the demo MCP server is in use; set QM_DEMO_MCP_PORT to a free port, or QM_DEMO=0.`);
  }
}

const ENTRY = fileURLToPath(new URL("./everything-entry.mjs", import.meta.url));

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 3000).unref();
  });
}

/** Starts the demo MCP server on 127.0.0.1:`port` (0: any free port). */
export async function startEverythingServer(port = 0): Promise<DemoMcpServer> {
  // Nothing else: not QM_SECRET, not DATABASE_URL, not the bootstrap credentials.
  const minimal: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", PORT: String(port) };
  const child = fork(ENTRY, [], {
    env: minimal as unknown as NodeJS.ProcessEnv,
    execArgv: [],
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  child.stderr?.on("data", (chunk: Buffer) => log.debug({ demoMcp: chunk.toString().trim() }, "demo MCP server"));
  const listening = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the demo MCP server did not start listening")), 15_000);
    child.once("message", (message: { listening?: number; error?: string }) => {
      clearTimeout(timer);
      if (message.listening) resolve(message.listening);
      else if (message.error === "EADDRINUSE") reject(new DemoPortTaken(port));
      else reject(new Error(`the demo MCP server could not listen: ${message.error}`));
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the demo MCP server exited with code ${code}`));
    });
  }).catch(async (error: unknown) => {
    await stopChild(child);
    throw error;
  });
  // It dies with us even on kill -9 (its IPC channel closes); it must not keep us alive.
  child.unref();
  child.channel?.unref();
  return { url: `http://127.0.0.1:${listening}/mcp`, pid: child.pid ?? 0, stop: () => stopChild(child) };
}
