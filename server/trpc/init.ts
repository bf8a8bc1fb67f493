/**
 * tRPC setup: context, the role each procedure declares, and the single place where
 * DomainError codes become tRPC/HTTP codes.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ZodError } from "zod";
import { type Actor, actorRole } from "../actor";
import { isDomainError } from "../errors";
import { type Logger, log } from "../log";
import { type Role, roleAllows } from "../roles";
import { transformer } from "./transformer";

export interface Context {
  actor: Actor | null;
  /** Why a presented credential was refused, for the 401 message. */
  authProblem?: string;
  requestId: string;
  log: Logger;
}

export interface Meta {
  /**
   * The role a caller needs, or the roles any of which will do (grants: curators and
   * operators). Every procedure declares one (a test enforces it).
   */
  role: Role | readonly Role[] | "public";
}

// One HTTP status per DomainError code (server/errors.ts) decides the tRPC code.
const TRPC_CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  422: "UNPROCESSABLE_CONTENT",
};

function zodMessage(error: ZodError): { message: string; field: string } {
  const issue = error.issues[0];
  const field = issue?.path.length ? issue.path.join(".") : "input";
  return { message: `${field}: ${issue?.message ?? "invalid"}`, field };
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    transformer,
    errorFormatter({ shape, error, ctx }) {
      // Stacks stay in the server log; answers never carry them.
      const { stack: _stack, ...data } = shape.data;
      const cause = error.cause;
      if (isDomainError(cause)) {
        return {
          ...shape,
          message: cause.message,
          data: { ...data, domainCode: cause.code, details: cause.details ?? null },
        };
      }
      if (cause instanceof ZodError) {
        const { message, field } = zodMessage(cause);
        return {
          ...shape,
          message,
          data: { ...data, domainCode: "INVALID_INPUT", details: { field } },
        };
      }
      if (error.code === "INTERNAL_SERVER_ERROR") {
        return {
          ...shape,
          message: "Internal error. The server log has details under this request's id.",
          data: { ...data, domainCode: "INTERNAL", details: null },
        };
      }
      // tRPC's own refusals (no such procedure, wrong method) say what to do. A library's
      // exception under them (a JSON parser, say) speaks of internals: it is logged, and
      // the answer says in a sentence what was wrong with the request.
      if (cause && !(cause instanceof TRPCError)) {
        (ctx?.log ?? log).warn({ err: cause, code: error.code, requestId: ctx?.requestId }, "tRPC request refused");
        return {
          ...shape,
          message:
            cause instanceof SyntaxError
              ? "The request body is not valid JSON."
              : "The request could not be read; see docs/api.md for how to call the API.",
          data: { ...data, domainCode: "INVALID_INPUT", details: null },
        };
      }
      return { ...shape, data: { ...data, domainCode: null, details: null } };
    },
  });

/**
 * Turns a DomainError thrown anywhere below, or an input that failed its schema, into
 * the matching tRPC error with a message naming the field (for server-side callers
 * too, not only over HTTP).
 */
const mapDomainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = result.error.cause;
  if (isDomainError(cause)) {
    throw new TRPCError({
      code: TRPC_CODE_BY_STATUS[cause.status] ?? "INTERNAL_SERVER_ERROR",
      message: cause.message,
      cause,
    });
  }
  if (cause instanceof ZodError) {
    throw new TRPCError({ code: "BAD_REQUEST", message: zodMessage(cause).message, cause });
  }
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure.use(mapDomainErrors).meta({ role: "public" });

/** A procedure callable by a console user or API key whose role allows `role` (or one of them). */
export function procedure(role: Role | readonly Role[]) {
  const needed: readonly Role[] = typeof role === "string" ? [role] : role;
  return t.procedure
    .use(mapDomainErrors)
    .meta({ role })
    .use(({ ctx, next }) => {
      const actor = ctx.actor;
      const actorsRole = actor ? actorRole(actor) : null;
      if (!actor || !actorsRole) {
        throw new TRPCError({
          code: "UNAUTHORIZED",
          message: ctx.authProblem ?? "Sign in, or send Authorization: Bearer <API key>.",
        });
      }
      if (!needed.some((r) => roleAllows(actorsRole, r))) {
        throw new TRPCError({
          code: "FORBIDDEN",
          message: `This action needs the ${needed.join(" or ")} role; you are ${actorsRole}.`,
        });
      }
      return next({ ctx: { ...ctx, actor } });
    });
}
