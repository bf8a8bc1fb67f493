/**
 * An embedded database folder may be open in one process only (PGlite has no
 * multi-process access). The lock is a listening Unix socket named after the folder: the
 * kernel lets only one process listen on a name and frees it the moment that process
 * ends, however it ends (kill -9 included), so a dead holder, a zombie or a recycled pid
 * can never keep the folder locked. Whoever finds it taken asks the holder for its pid,
 * to say exactly what to stop.
 *
 * On Linux the name is in the abstract namespace (no file to leave behind); elsewhere it
 * is a socket file in the temporary folder, and a file nobody listens on is stale.
 * quartermaster.lock in the folder says who holds it, for people; nothing trusts it.
 */
import { createHash } from "node:crypto";
import { realpathSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

interface Holder {
  pid: number;
  since: string;
}

function socketName(folder: string): string {
  const id = createHash("sha256").update(realpathSync(folder)).digest("hex").slice(0, 32);
  return process.platform === "linux" ? `\0quartermaster-${id}` : path.join(os.tmpdir(), `quartermaster-${id}.sock`);
}

function listen(server: net.Server, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(name, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** The holder's answer, or null when nothing listens (a stale socket file). */
function askHolder(name: string): Promise<Holder | null> {
  return new Promise((resolve) => {
    let text = "";
    const socket = net.connect(name);
    socket.setTimeout(2000, () => socket.destroy());
    socket.on("data", (chunk) => {
      text += chunk;
    });
    socket.on("end", () => {
      try {
        resolve(JSON.parse(text) as Holder);
      } catch {
        resolve({ pid: 0, since: "" });
      }
    });
    socket.on("error", (error: NodeJS.ErrnoException) =>
      resolve(error.code === "ECONNREFUSED" || error.code === "ENOENT" ? null : { pid: 0, since: "" }),
    );
    socket.on("close", () => resolve({ pid: 0, since: "" }));
  });
}

/** Locks `folder` (which must exist) for this process; resolves to the function that lets go. */
export async function lockDataFolder(folder: string): Promise<() => Promise<void>> {
  const name = socketName(folder);
  const holder: Holder = { pid: process.pid, since: new Date().toISOString() };
  const server = net.createServer((socket) => socket.end(JSON.stringify(holder)));
  for (let attempt = 0; ; attempt++) {
    try {
      await listen(server, name);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
      const other = await askHolder(name);
      if (other === null && attempt === 0 && !name.startsWith("\0")) {
        rmSync(name, { force: true }); // a socket file its process left behind
        continue;
      }
      const who = other?.pid ? `process ${other.pid}` : "another process";
      throw new Error(
        `The embedded database in ${folder} is in use by ${who} (probably a running Quartermaster). Stop it first, or set DATABASE_URL to use a PostgreSQL server.`,
      );
    }
  }
  // The lock must not keep the process alive, and it ends with it.
  server.unref();
  const info = path.join(folder, "quartermaster.lock");
  writeFileSync(info, JSON.stringify(holder), { mode: 0o600 });
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    rmSync(info, { force: true });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}
