/**
 * tRPC setup: context, the role each procedure declares, and the single place where
 * DomainError codes become tRPC/HTTP codes.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import superjson from "superjson";
import { ZodError } from "zod";
import { type Actor, actorRole } from "../actor";
import { type ErrorCode, isDomainError } from "../errors";
import type { Logger } from "../log";
import { type Role, roleAllows } from "../roles";

export interface Context {
  actor: Actor | null;
  /** Why a presented credential was refused, for the 401 message. */
  authProblem?: string;
  requestId: string;
  log: Logger;
}

export interface Meta {
  /** The role a caller needs. Every procedure declares one (a test enforces it). */
  role: Role | "public";
}

const TRPC_CODE: Record<ErrorCode | "PAYLOAD_TOO_LARGE" | "UNPROCESSABLE", TRPC_ERROR_CODE_KEY> = {
  UNAUTHENTICATED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  INVALID_INPUT: "BAD_REQUEST",
  INTERNAL: "INTERNAL_SERVER_ERROR",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNPROCESSABLE: "UNPROCESSABLE_CONTENT",
};

function trpcCodeFor(code: string, status: number): TRPC_ERROR_CODE_KEY {
  if (code in TRPC_CODE) return TRPC_CODE[code as keyof typeof TRPC_CODE];
  if (status === 413) return "PAYLOAD_TOO_LARGE";
  if (status === 422) return "UNPROCESSABLE_CONTENT";
  if (status === 409) return "CONFLICT";
  if (status === 404) return "NOT_FOUND";
  if (status === 400) return "BAD_REQUEST";
  return "INTERNAL_SERVER_ERROR";
}

function zodMessage(error: ZodError): { message: string; field: string } {
  const issue = error.issues[0];
  const field = issue?.path.length ? issue.path.join(".") : "input";
  return { message: `${field}: ${issue?.message ?? "invalid"}`, field };
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    transformer: superjson,
    errorFormatter({ shape, error }) {
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
    throw new TRPCError({ code: trpcCodeFor(cause.code, cause.status), message: cause.message, cause });
  }
  if (cause instanceof ZodError) {
    throw new TRPCError({ code: "BAD_REQUEST", message: zodMessage(cause).message, cause });
  }
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure.use(mapDomainErrors).meta({ role: "public" });

/** A procedure callable by a console user or API key whose role allows `role`. */
export function procedure(role: Role) {
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
      if (!roleAllows(actorsRole, role)) {
        throw new TRPCError({
          code: "FORBIDDEN",
          message: `This action needs the ${role} role; you are ${actorsRole}.`,
        });
      }
      return next({ ctx: { ...ctx, actor } });
    });
}
