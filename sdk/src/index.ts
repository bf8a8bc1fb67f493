/**
 * @quartermaster/tool-host — define Tools in TypeScript and serve them to Quartermaster's
 * agents as an SDK Tool Host. See README.md.
 */
export type { CollectedCall, GoodbyeAnswer, HeartbeatAnswer, RegistrationAnswer, SubmissionOutcome } from "./api.ts";
export type { BackoffOptions } from "./backoff.ts";
export { audio, image, resourceLink, type ToolResultValue, toolResult } from "./content.ts";
export { type Limit, type LimitClass, RESERVED_ARGUMENT_PREFIX, TOOL_HOST_LIMITS } from "./contract/limits.ts";
export type { ResultContentBlock } from "./contract/result-checks.ts";
export type { FailureDetails, RegistrationFailureCode } from "./contract/tool-checks.ts";
export type {
  HandlerResult,
  ToolAnnotations,
  ToolCallContext,
  ToolDefinition,
  ToolOutput,
  ToolSpec,
} from "./define-tool.ts";
export {
  AuthenticationError,
  RegistrationError,
  type RegistrationErrorCode,
  ToolDefinitionError,
  ToolHostError,
} from "./errors.ts";
export { createToolHost, type ServeSummary, ToolHost, type ToolHostOptions, type ToolHostState } from "./host.ts";
export type { Logger } from "./logger.ts";
export { SDK_PACKAGE, SDK_VERSION } from "./version.ts";
