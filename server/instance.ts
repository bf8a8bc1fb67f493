/**
 * This process as the other instances sharing its database see it: the name its leases
 * carry (host:pid:random, so an operator can tell which machine and process holds what,
 * and a recycled pid is still a different instance) and whether it is draining.
 *
 * Kept on globalThis: the custom server (scripts/start.ts) and Next's bundled route code
 * are separate module graphs in one process, and both must agree on who this instance
 * is (a lease taken by "Check now" in a route is released by the shutdown in start.ts)
 * and on whether it is draining (the readiness route answers what start.ts decided).
 */
import { hostname } from "node:os";

interface InstanceState {
  id: string;
  /** Set when shutdown began: not ready for traffic any more. */
  drainingSince: number | null;
}

const KEY = Symbol.for("quartermaster.instance");
const holder = globalThis as { [KEY]?: InstanceState };
holder[KEY] ??= {
  id: `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`,
  drainingSince: null,
};
const state: InstanceState = holder[KEY];

export const INSTANCE_ID = state.id;

export function startDraining(): void {
  state.drainingSince ??= Date.now();
}

export function isDraining(): boolean {
  return state.drainingSince !== null;
}
