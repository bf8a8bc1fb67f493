/**
 * Debian's nginx (`/usr/sbin/nginx`, installed by `.ci/run`) in front of test upstreams,
 * with the reverse-proxy snippet of docs/deploy.md as written there: only the listen line
 * (no TLS in a test) and the upstream addresses are replaced, so a change to the documented
 * config is what the test runs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { stopProcess } from "./spawn-server";

export const NGINX = process.env.QM_NGINX ?? "/usr/sbin/nginx";
const ROOT = path.resolve(import.meta.dirname, "../..");

export function nginxAvailable(): boolean {
  return existsSync(NGINX);
}

/** The first ```nginx block of docs/deploy.md. */
export function documentedNginxConfig(): string {
  const doc = readFileSync(path.join(ROOT, "docs/deploy.md"), "utf8");
  const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error("docs/deploy.md has no ```nginx block");
  return block;
}

export interface Nginx {
  url: string;
  /** What nginx wrote to its error log (notice level and up). */
  output(): string;
  /** Rewrites the upstream's servers and reloads nginx (`nginx -s reload`), as an operator does. */
  setUpstreams(upstreams: string[]): Promise<void>;
  stop(): Promise<void>;
}

/** docs/deploy.md's server block, listening on `port` and proxying to `upstreams`. */
function configFor(port: number, upstreams: string[]): string {
  let config = documentedNginxConfig();
  const servers = [...config.matchAll(/^\s*server \d+\.\d+\.\d+\.\d+:\d+(.*);$/gm)];
  if (servers.length === 0) throw new Error("the documented upstream lists no server");
  const options = servers[0]?.[1] ?? "";
  config = config.replace(
    /^(\s*server \d+\.\d+\.\d+\.\d+:\d+.*;\n)+/m,
    upstreams.map((u) => `    server ${u}${options};\n`).join(""),
  );
  if (!/^\s*listen 443 ssl;/m.test(config)) throw new Error("the documented server block no longer listens on 443 ssl");
  return config.replace(/^(\s*)listen 443 ssl;/m, `$1listen 127.0.0.1:${port};`);
}

/** Starts nginx on `port` (loopback) proxying to `upstreams` ("127.0.0.1:PORT"). */
export async function startNginx(port: number, upstreams: string[]): Promise<Nginx> {
  const prefix = mkdtempSync(path.join(os.tmpdir(), "qm-nginx-"));
  // Workers run as nobody when the master is root: they must reach the temp folders.
  chmodSync(prefix, 0o755);
  const temps = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
    .map((t) => `    ${t}_temp_path ${path.join(prefix, t)};`)
    .join("\n");
  const write = (servers: string[]) =>
    writeFileSync(
      path.join(prefix, "nginx.conf"),
      `daemon off;
master_process on;
worker_processes 1;
pid ${path.join(prefix, "nginx.pid")};
error_log stderr notice;
events { worker_connections 512; }
http {
    access_log off;
${temps}
${configFor(port, servers)}
}
`,
    );
  write(upstreams);
  const child: ChildProcess = spawn(NGINX, ["-p", prefix, "-c", path.join(prefix, "nginx.conf"), "-e", "stderr"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${out}`);
    if (await accepts(port)) break;
    if (Date.now() > deadline) throw new Error(`nginx never listened on ${port}:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const workersStarted = () => out.split("start worker process").length - 1;
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    async setUpstreams(servers) {
      write(servers);
      const before = workersStarted();
      child.kill("SIGHUP");
      const until = Date.now() + 10_000;
      // Reloaded once a worker with the new configuration runs; the old ones finish what they hold.
      while (workersStarted() === before) {
        if (Date.now() > until) throw new Error(`nginx did not reload:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      await stopProcess(child, exited, 5_000);
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
