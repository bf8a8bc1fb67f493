/**
 * The demo's live Source: the public reference MCP server from npm
 * (@modelcontextprotocol/server-everything), started on loopback beside the app.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";
import { log } from "../log";

const require = createRequire(import.meta.url);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the demo MCP server exited with code ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the demo MCP server did not start listening");
}

export interface DemoMcpServer {
  url: string;
  stop(): Promise<void>;
}

export async function startEverythingServer(preferredPort = 0): Promise<DemoMcpServer> {
  const port = preferredPort || (await freePort());
  const entry = path.join(
    path.dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
    "dist/index.js",
  );
  const child = spawn(process.execPath, [entry, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr?.on("data", (chunk: Buffer) => log.debug({ demoMcp: chunk.toString().trim() }, "demo MCP server"));
  await waitForPort(port, child);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 3000).unref();
      }),
  };
}
