/**
 * What the SDK throws. Every error carries the code Quartermaster uses for the same
 * refusal (or one of the SDK's own, listed here), so a host can branch on `code`.
 */
import type { FailureDetails, RegistrationFailureCode } from "./contract/tool-checks.ts";

export class ToolHostError extends Error {
  override name = "ToolHostError";
  constructor(
    /** Quartermaster's error code, or UNREACHABLE / HTTP_<status> / CLOSED for the SDK's own. */
    readonly code: string,
    message: string,
    readonly details: FailureDetails = {},
    /** The HTTP status Quartermaster answered (or would answer, for a refusal found locally). */
    readonly status?: number,
    /** Whether trying again later may succeed (Quartermaster unreachable, restarting, overloaded). */
    readonly retryable = false,
  ) {
    super(message);
  }
}

export type RegistrationErrorCode = RegistrationFailureCode | "SOURCE_PAUSED";

/**
 * The Tool list was refused, by Quartermaster or before sending by the SDK's own checks
 * (`local`), with the same code, message and details either way: `tool` names the Tool,
 * `limit` and `measured` the limit it broke and by how much.
 */
export class RegistrationError extends ToolHostError {
  override name = "RegistrationError";
  declare readonly code: RegistrationErrorCode;
  constructor(
    code: RegistrationErrorCode,
    message: string,
    details: FailureDetails,
    status: number,
    /** True when the SDK refused the list itself, before any request. */
    readonly local: boolean,
  ) {
    super(code, message, details, status, false);
  }
  get tool(): string | undefined {
    return typeof this.details.tool === "string" ? this.details.tool : undefined;
  }
  get limit(): number | undefined {
    return this.details.limit;
  }
  get measured(): number | string | undefined {
    return this.details.measured;
  }
}

/** The host token was refused: wrong, rotated, or its SDK Tool Host was deleted. */
export class AuthenticationError extends ToolHostError {
  override name = "AuthenticationError";
  constructor(message: string) {
    super("UNAUTHENTICATED", message, {}, 401, false);
  }
}

/** A Tool definition the SDK cannot publish as written (a developer error, found at `host.tool()`). */
export class ToolDefinitionError extends ToolHostError {
  override name = "ToolDefinitionError";
  constructor(
    code: "TOOL_SCHEMA_UNREPRESENTABLE" | "TOOL_DEFINITION_INVALID" | "TOOLS_FIXED_AFTER_SERVE" | "TOOL_NOT_OFFERABLE",
    message: string,
    details: FailureDetails = {},
  ) {
    super(code, message, details);
  }
}
