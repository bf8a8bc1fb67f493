/**
 * An embedded database folder may be open in one process only (PGlite has no
 * multi-process access). The lock file names the holder so a second process can say
 * exactly what to stop instead of corrupting the folder.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function lockDataFolder(folder: string): () => void {
  const file = path.join(folder, "quartermaster.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, since: new Date().toISOString() }));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let holder: { pid?: number } = {};
      try {
        holder = JSON.parse(readFileSync(file, "utf8"));
      } catch {
        // unreadable: treat as stale
      }
      if (holder.pid && holder.pid !== process.pid && alive(holder.pid)) {
        throw new Error(
          `The embedded database in ${folder} is in use by process ${holder.pid} (probably a running Quartermaster). Stop it first, or set DATABASE_URL to use a PostgreSQL server.`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database in ${folder}.`);
}
