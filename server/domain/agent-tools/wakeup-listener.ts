/**
 * Wake-ups across instances on PostgreSQL (docs/decisions/0085): a call queued through one
 * instance's /mcp wakes a host long-polling another at once, and a result posted to that one
 * wakes the agent's waiter on the first. The statement that writes a call's row sends its
 * NOTIFY (pg_notify in the same statement, so in the same transaction: PostgreSQL delivers
 * it at commit, never before the row can be read); each instance LISTENs on a connection of
 * its own — never a pooled one, which would hand the LISTEN to whichever query came next —
 * and turns each notification into wake() for its waiters.
 *
 * A notification can be lost (the listener's connection dropped, the server restarted):
 * waiters still read the database every TOOL_HOST_WAKE_POLL_MS, so a lost one costs at most
 * that. When the listener connects again every waiter here reads at once. The embedded
 * database is one process's: its wake-ups are all in-process and need no listener.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { database } from "../../db";
import type { OpenedDatabase } from "../../db/open";
import { log } from "../../log";
import { wake, wakeAll } from "./wakeups";

export const WAKEUP_CHANNEL = "qm_wakeups";
/** How the listener's connection shows in pg_stat_activity. */
export const WAKEUP_APPLICATION_NAME = "quartermaster-wakeups";
/** Longest a waiter waits for the listener's first connection: the fallback polling covers the rest. */
const READY_WAIT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 5_000;
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

interface State {
  /** This process's tag in each payload: its own notifications need not wake it twice. */
  instance: string;
  listeners: WeakMap<OpenedDatabase, Listener>;
}
// On globalThis: one listener per process, whichever module graph (decision 0004) asks first.
const KEY = Symbol.for("quartermaster.wakeupListener");
const holder = globalThis as unknown as { [KEY]?: State };
holder[KEY] ??= { instance: randomUUID(), listeners: new WeakMap() };
const state: State = holder[KEY];

/** A notification's payload announcing `key` to the other instances. */
export function wakePayload(key: string): string {
  return `${state.instance} ${key}`;
}

/**
 * Makes sure this instance hears the other instances' wake-ups (PostgreSQL: once its first
 * connection attempt is over, whatever its outcome), and says which database this is.
 */
export async function listenForWakeups(): Promise<OpenedDatabase["kind"]> {
  const opened = await database();
  if (opened.kind !== "postgresql" || !opened.url) return opened.kind;
  let listener = state.listeners.get(opened);
  if (!listener) {
    listener = new Listener(opened.url);
    state.listeners.set(opened, listener);
    const started = listener;
    opened.onClose(() => started.stop());
  }
  // A call never waits on the listener for long: a server slow to take a connection only
  // means other instances' wake-ups reach this one by polling until it has one.
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    listener.ready,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, READY_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
  return opened.kind;
}

class Listener {
  private client: pg.Client | null = null;
  private stopped = false;
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Settles after the first connection attempt. */
  readonly ready: Promise<void>;
  private settle: () => void = () => {};

  constructor(private readonly url: string) {
    this.ready = new Promise((resolve) => {
      this.settle = resolve;
    });
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.url,
      application_name: WAKEUP_APPLICATION_NAME,
      keepAlive: true,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    this.client = client;
    client.on("notification", (message) => {
      const payload = message.payload ?? "";
      const space = payload.indexOf(" ");
      if (space < 0 || payload.slice(0, space) === state.instance) return;
      wake(payload.slice(space + 1));
    });
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${WAKEUP_CHANNEL}`);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.client !== client) return;
    if (this.failures) log.info({ attempts: this.failures }, "wake-up listener connected again");
    this.failures = 0;
    this.settle();
    // Whatever was signalled while nobody listened is lost: every waiter here reads again.
    wakeAll();
  }

  private lost(client: pg.Client, error?: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    client.removeAllListeners("notification");
    client.end().catch(() => {});
    this.settle();
    if (this.stopped) return;
    const wait = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** this.failures++);
    log.warn(
      { err: error, retryInMs: wait },
      "wake-up listener lost its database connection; other instances' calls and results reach this one by polling until it is back",
    );
    this.timer = setTimeout(() => void this.connect(), wait);
    // Waiting to reconnect keeps nothing alive: a process with nothing else to do may exit.
    this.timer.unref?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    this.settle();
    await client?.end().catch(() => {});
  }
}

/**
 * Wakes whoever waits on `key`, here and (PostgreSQL) on the other instances, for a change
 * already committed — one not written by a statement of host-calls.ts, such as a host's
 * withdrawal. Best effort: a waiter that misses it reads the database within its interval.
 */
export async function signalWakeup(key: string): Promise<void> {
  wake(key);
  const opened = await database();
  if (opened.kind !== "postgresql") return;
  try {
    await opened.db.$executeRaw`SELECT pg_notify(${WAKEUP_CHANNEL}, ${wakePayload(key)})`;
  } catch (error) {
    log.warn({ err: error, key }, "could not tell the other instances of a change; their waiters poll for it");
  }
}
