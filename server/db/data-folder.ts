/**
 * The data folder holds the embedded database, the installation secret and the demo
 * sign-in: only its owner may read or write it. Anyone who can write the database's
 * files can add an admin key, so the folder is created 0700, what the process creates
 * afterwards is private (umask 077), and folders and files left open by older versions,
 * by hand or by PGlite (which sets its files 0666) are closed again when the database is
 * opened and closed. A folder at 0700 keeps other users from every file inside it.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

/** Creates `dir` private if it is missing; returns how many entries had to be closed. */
export function secureDataFolder(dir: string): number {
  try {
    // Whatever this process creates from now on (PGlite's files among it) is private.
    process.umask(0o077);
  } catch {
    // A worker thread may not set the umask (tests); the repair below still runs.
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let repaired = 0;
  const walk = (entry: string) => {
    const stat = lstatSync(entry);
    if (stat.isSymbolicLink()) return; // its target is not ours to change
    if (stat.mode & 0o077) {
      chmodSync(entry, stat.isDirectory() ? 0o700 : 0o600);
      repaired++;
    }
    if (stat.isDirectory()) for (const name of readdirSync(entry)) walk(path.join(entry, name));
  };
  walk(dir);
  return repaired;
}
