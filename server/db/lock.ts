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

/** `purpose` keeps locks on one folder for different ends apart ("" is the database's). */
function socketName(folder: string, purpose = ""): string {
  const id = createHash("sha256").update(realpathSync(folder)).digest("hex").slice(0, 32);
  const name = `quartermaster-${purpose ? `${purpose}-` : ""}${id}`;
  return process.platform === "linux" ? `\0${name}` : path.join(os.tmpdir(), `${name}.sock`);
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

/**
 * Takes the lock named for `folder` and `purpose`; resolves to the function that lets go,
 * or to the holder (its pid, 0 when it did not say) when a live process has it.
 */
export async function claimFolderLock(
  folder: string,
  purpose = "",
): Promise<{ release: () => Promise<void> } | { heldBy: number }> {
  const name = socketName(folder, purpose);
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
      return { heldBy: other?.pid ?? 0 };
    }
  }
  // The lock must not keep the process alive, and it ends with it.
  server.unref();
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Locks `folder` (which must exist) for this process; resolves to the function that lets go. */
export async function lockDataFolder(folder: string): Promise<() => Promise<void>> {
  const claim = await claimFolderLock(folder);
  if ("heldBy" in claim) {
    const who = claim.heldBy ? `process ${claim.heldBy}` : "another process";
    throw new Error(
      `The embedded database in ${folder} is in use by ${who} (probably a running Quartermaster). Stop it first, or set DATABASE_URL to use a PostgreSQL server.`,
    );
  }
  const info = path.join(folder, "quartermaster.lock");
  writeFileSync(info, JSON.stringify({ pid: process.pid, since: new Date().toISOString() }), { mode: 0o600 });
  return async () => {
    rmSync(info, { force: true });
    await claim.release();
  };
}
