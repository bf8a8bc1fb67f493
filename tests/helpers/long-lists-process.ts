/**
 * Starts tests/helpers/long-lists-server.ts in a process of its own (an embedded
 * database may be opened by one process only), on a free loopback port and a fresh data
 * folder, and signs in its admin. For e2e/long-lists.spec.ts and bench/lists.ts; both
 * need `next build` to have run (the e2e web server and `npm start` build when needed).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { SeededLongLists } from "./long-lists";

export interface LongListsServer extends SeededLongLists {
  url: string;
  seedMs: number;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export async function startLongListsServer(options: { timeoutMs?: number } = {}): Promise<LongListsServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "qm-long-lists-"));
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "long-lists-server.ts")],
    {
      env: {
        ...process.env,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        QM_DATA_DIR: dataDir,
        QM_BASE_URL: `http://127.0.0.1:${port}`,
        QM_DEMO: "0",
        QM_SCHEDULER: "0",
        LOG_LEVEL: "warn",
        DATABASE_URL: "",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stderr?.on("data", (c: Buffer) => {
    output += c.toString();
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const ready = await new Promise<Omit<LongListsServer, "stop">>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`long-lists server not ready:\n${output}`)),
        options.timeoutMs ?? 240_000,
      );
      let out = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split("\n").find((l) => l.startsWith("{"));
        if (line && out.includes(`${line}\n`)) {
          clearTimeout(timer);
          resolve(JSON.parse(line));
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`long-lists server exited (${code}):\n${output}`));
      });
    });
    return { ...ready, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
