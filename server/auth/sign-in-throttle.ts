/**
 * Console sign-in attempts, limited so that guessing a password is slow and a stranger
 * cannot lock the owner out. Three counters, kept in the database (every instance shares
 * them), each with a few free failures and then an exponential back-off:
 *
 * - per account and client address: the attacker's own attempts at one account;
 * - per client address, any account: one client spraying many accounts;
 * - per account, any address: many addresses guessing one account. The owner's addresses
 *   (where the account signed in before) skip this one, so a distributed attack slows
 *   newcomers but never the owner.
 *
 * An attempt is charged before its password is checked and refunded when it succeeds, so
 * a burst of parallel guesses cannot all pass before the first failure is counted.
 */
import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { getDb } from "../db";
import type { Tx } from "../db/types";
import { LIMITS } from "../limits";

/** Failures older than this (since the last one) are forgotten. */
const FORGET_AFTER_MS = 60 * 60_000;
/** An address the account signed in from within this long is one of the owner's. */
const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60_000;

type Scope = "pair" | "address" | "account";

const FREE: Record<Scope, number> = {
  pair: LIMITS.SIGN_IN_FREE_FAILURES.value,
  address: LIMITS.SIGN_IN_ADDRESS_FAILURES.value,
  account: LIMITS.SIGN_IN_ACCOUNT_FAILURES.value,
};

interface Row {
  key: string;
  failures: number;
  lastFailureAt: Date | null;
  blockedUntil: Date | null;
  lastSuccessAt: Date | null;
}

/** IPv6 clients usually hold a whole /64: one key per /64, as one IPv4 address is one key. */
export function addressKey(address: string): string {
  if (isIP(address) !== 6) return address || "unknown";
  const [head = "", tail] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || "0", 16).toString(16))
    .join(":")}::/64`;
}

function accountKey(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase()).digest("hex").slice(0, 32);
}

function keysOf(email: string | null, address: string): Record<Scope, string | null> {
  const where = addressKey(address);
  const account = email ? accountKey(email) : null;
  return {
    pair: account ? `pair:${account}:${where}` : null,
    address: `address:${where}`,
    account: account ? `account:${account}` : null,
  };
}

/** Seconds to wait after the nth failure past the free ones: 1, 2, 4, … up to the maximum. */
export function backoffSeconds(overFree: number): number {
  if (overFree <= 0) return 0;
  return Math.min(2 ** Math.min(overFree - 1, 30), LIMITS.SIGN_IN_BACKOFF_MAX_SECONDS.value);
}

export type SignInDecision =
  | { allowed: true; email: string | null; address: string }
  | { allowed: false; retryAfterSeconds: number; scope: Scope };

async function lockRows(tx: Tx, keys: string[]): Promise<Map<string, Row>> {
  const sorted = [...keys].sort();
  for (const key of sorted)
    await tx.$executeRaw`INSERT INTO sign_in_throttle (key) VALUES (${key}) ON CONFLICT (key) DO NOTHING`;
  // Locked in key order, so two attempts on overlapping keys cannot deadlock.
  const rows = await tx.$queryRaw<Row[]>`
    SELECT key, failures, "lastFailureAt", "blockedUntil", "lastSuccessAt"
    FROM sign_in_throttle WHERE key = ANY(${sorted}) ORDER BY key FOR UPDATE`;
  return new Map(rows.map((r) => [r.key, r]));
}

/**
 * Charges one sign-in attempt for `email` from `address`, or refuses it with how long to
 * wait. `email` is null when the request named none (it is charged to the address only).
 */
export async function chargeSignIn(email: string | null, address: string, now = new Date()): Promise<SignInDecision> {
  const keys = keysOf(email, address);
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const present = Object.values(keys).filter((k): k is string => k !== null);
    const rows = await lockRows(tx, present);
    const pair = keys.pair ? rows.get(keys.pair) : undefined;
    const known = pair?.lastSuccessAt && now.getTime() - pair.lastSuccessAt.getTime() < KNOWN_ADDRESS_MS;
    const applicable = (["pair", "address", "account"] as const).flatMap((scope) => {
      const key = keys[scope];
      const row = key ? rows.get(key) : undefined;
      if (!row || (scope === "account" && known)) return [];
      return [{ scope, row }];
    });

    let wait: { seconds: number; scope: Scope } | null = null;
    for (const { scope, row } of applicable) {
      if (row.blockedUntil && row.blockedUntil > now) {
        const seconds = Math.ceil((row.blockedUntil.getTime() - now.getTime()) / 1000);
        if (!wait || seconds > wait.seconds) wait = { seconds, scope };
      }
    }
    if (wait) return { allowed: false as const, retryAfterSeconds: wait.seconds, scope: wait.scope };

    for (const { scope, row } of applicable) {
      const stale = !row.lastFailureAt || now.getTime() - row.lastFailureAt.getTime() > FORGET_AFTER_MS;
      const failures = (stale ? 0 : row.failures) + 1;
      const backoff = backoffSeconds(failures - FREE[scope]);
      await tx.signInThrottle.update({
        where: { key: row.key },
        data: {
          failures,
          lastFailureAt: now,
          blockedUntil: backoff ? new Date(now.getTime() + backoff * 1000) : null,
        },
      });
    }
    return { allowed: true as const, email, address };
  });
}

/**
 * The charged attempt signed in: the account and address are the owner's now (their pair
 * is cleared and remembered), and the address and account counters get the attempt back.
 */
export async function refundSignIn(decision: Extract<SignInDecision, { allowed: true }>, now = new Date()) {
  const keys = keysOf(decision.email, decision.address);
  const db = await getDb();
  await db.$transaction(async (tx) => {
    const present = Object.values(keys).filter((k): k is string => k !== null);
    const rows = await lockRows(tx, present);
    for (const scope of ["address", "account"] as const) {
      const row = keys[scope] ? rows.get(keys[scope]) : undefined;
      if (!row || row.failures === 0) continue;
      const failures = row.failures - 1;
      await tx.signInThrottle.update({
        where: { key: row.key },
        data: { failures, blockedUntil: failures > FREE[scope] ? row.blockedUntil : null },
      });
    }
    if (keys.pair)
      await tx.signInThrottle.update({
        where: { key: keys.pair },
        data: { failures: 0, blockedUntil: null, lastSuccessAt: now },
      });
  });
}

/** Forgets counters with nothing left to say: no recent failure, no owner's address to remember. */
export async function sweepSignInThrottle(now = new Date()): Promise<number> {
  const db = await getDb();
  const { count } = await db.signInThrottle.deleteMany({
    where: {
      AND: [
        { OR: [{ lastFailureAt: null }, { lastFailureAt: { lt: new Date(now.getTime() - FORGET_AFTER_MS) } }] },
        { OR: [{ blockedUntil: null }, { blockedUntil: { lt: now } }] },
        { OR: [{ lastSuccessAt: null }, { lastSuccessAt: { lt: new Date(now.getTime() - KNOWN_ADDRESS_MS) } }] },
      ],
    },
  });
  return count;
}
