/**
 * `npm start` cannot hand its process over: npm stays as node's parent (the script's `exec`
 * only removes the shell between them). npm passes SIGTERM and SIGINT on, but a process
 * manager that kills npm's pid with SIGKILL, or npm dying, would leave the server serving
 * with nobody to stop it. So a server started by npm watches its parent, and drains as on
 * SIGTERM once the parent is gone (it is then re-parented: its parent pid changes).
 */
const EVERY_MS = 1_000;

/** Calls `onGone` once if this process was started by npm and npm goes away; a no-op otherwise. */
export function watchParent(onGone: () => void): void {
  if (!process.env.npm_lifecycle_event) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, EVERY_MS);
  timer.unref();
}
