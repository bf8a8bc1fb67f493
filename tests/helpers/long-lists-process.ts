/**
 * Starts tests/helpers/long-lists-server.ts in a process of its own (an embedded
 * database may be opened by one process only), on a free loopback port and a fresh data
 * folder, and signs in its admin. For e2e/long-lists.spec.ts and bench/lists.ts; both
 * need `next build` to have run (the e2e web server and `npm start` build when needed).
 */
import path from "node:path";
import type { SeededLongLists } from "./long-lists";
import { spawnServer } from "./spawn-server";

export interface LongListsServer extends SeededLongLists {
  url: string;
  seedMs: number;
  stop(): Promise<void>;
}

export async function startLongListsServer(options: { timeoutMs?: number } = {}): Promise<LongListsServer> {
  const server = await spawnServer({
    name: "long-lists",
    args: ["--import", "tsx", path.join(import.meta.dirname, "long-lists-server.ts")],
    env: { QM_SCHEDULER: "0", LOG_LEVEL: "warn", DATABASE_URL: "" },
  });
  const { child, stop } = server;
  try {
    const ready = await new Promise<Omit<LongListsServer, "stop">>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`long-lists server not ready:\n${server.output()}`)),
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
        reject(new Error(`long-lists server exited (${code}):\n${server.output()}`));
      });
    });
    return { ...ready, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
