/**
 * One declaration per domain operation: the role it needs, its input schema and its body,
 * written once. Called directly (`createIdentity(actor, raw)`: scripts, other areas, tests)
 * it checks the role and parses the input itself; a transport that already did both (tRPC's
 * `procedure(op.role).input(op.input)`, see trpc/operations.ts) calls `op.run` with the
 * parsed input, so a request checks its role once and parses its input once.
 */
import "server-only";
import type { z } from "zod";
import { type Actor, requireRole } from "../actor";
import type { Role } from "../roles";
import { parseInput } from "./validation";

export interface Operation<S extends z.ZodType, R> {
  (actor: Actor, raw: z.input<S>): Promise<R>;
  readonly role: Role;
  readonly input: S;
  /** The body, for a caller that has checked the role and parsed the input already. */
  readonly run: (actor: Actor, input: z.output<S>) => Promise<R>;
}

export function operation<S extends z.ZodType, R>(
  declared: { role: Role; input: S },
  run: (actor: Actor, input: z.output<S>) => Promise<R>,
): Operation<S, R> {
  const call = async (actor: Actor, raw: z.input<S>) => {
    requireRole(actor, declared.role);
    return run(actor, parseInput(declared.input, raw));
  };
  return Object.assign(call, { role: declared.role, input: declared.input, run });
}
