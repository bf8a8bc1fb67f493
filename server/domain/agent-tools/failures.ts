/**
 * Why a proxied Tool Call failed. A failed call reaches the agent as a Tool Result with
 * isError set and the code in front of a message it can act on; the model reads it and
 * may try something else, instead of the whole request failing.
 */
export const TOOL_CALL_FAILURE_CODES = {
  TOOL_CALL_TIMEOUT: "The Source did not answer within the time one Tool Call may take.",
  SOURCE_UNREACHABLE: "The Source's server could not be reached or answered with an HTTP error.",
  SOURCE_ADDRESS_BLOCKED: "The Source's address is refused by the network policy.",
  REMOTE_RESPONSE_TOO_LARGE: "One response from the Source was larger than a remote response may be.",
  TOOL_RESULT_TOO_LARGE: "The Tool Result was larger than an accepted Tool Result may be.",
  TOOL_RESULT_TOO_MANY_TEXT_BLOCKS: "The Tool Result had more text blocks than are accepted.",
  TOOL_RESULT_TEXT_TOO_LONG: "One text block of the Tool Result was longer than accepted.",
  TOOL_RESULT_MALFORMED: "The Source's answer was not a Tool Result.",
  TOOL_RESULT_TOO_DEEP: "The Tool Result was nested more deeply than an accepted Tool Result may be.",
  SOURCE_CALL_ERROR: "The Source refused the call (a JSON-RPC error).",
  TOOL_RESULT_NUL: "An SDK Tool Host's output or error message contained a NUL character.",
  RATE_LIMITED:
    "The Agent Identity or the Tool is over its rate limit (calls per minute or calls at once); error.retryAfterMs says when to try again.",
} as const;

export type ToolCallFailureCode = keyof typeof TOOL_CALL_FAILURE_CODES;

export class ToolCallFailure extends Error {
  override readonly name = "ToolCallFailure";
  constructor(
    readonly code: ToolCallFailureCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
