/**
 * tRPC procedures built from domain operations (domain/operation.ts): the role and the
 * schema come from the operation, the procedure checks the one and parses the other, and
 * the body gets the parsed input. The text check parseInput makes runs on it as before.
 */
import type { z } from "zod";
import type { Operation } from "../domain/operation";
import { rejectUnstorable } from "../domain/validation";
import { procedure } from "./init";

function built<S extends z.ZodType, R>(op: Operation<S, R>) {
  return procedure(op.role).input(op.input);
}

export function queryOf<S extends z.ZodType, R>(op: Operation<S, R>) {
  return built(op).query(({ ctx, input }) => {
    rejectUnstorable(input);
    return op.run(ctx.actor, input as z.output<S>);
  });
}

export function mutationOf<S extends z.ZodType, R>(op: Operation<S, R>) {
  return built(op).mutation(({ ctx, input }) => {
    rejectUnstorable(input);
    return op.run(ctx.actor, input as z.output<S>);
  });
}
