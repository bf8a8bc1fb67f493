/**
 * What a submitted result may hold, written once: Quartermaster refuses a result that
 * breaks these rules as a failure of that one call, and the SDK applies the same rules to
 * a handler's output before sending it, so the host's own log says which call and why.
 */
import type { HostResultCode } from "./argument-problems.ts";
import { fmt } from "./format.ts";
import { TOOL_HOST_LIMITS as L } from "./limits.ts";
import type { ContractFailure } from "./tool-checks.ts";

export type ResultFailureCode = "TOOL_RESULT_TEXT_TOO_LONG" | "TOOL_RESULT_NUL" | "TOOL_RESULT_MALFORMED";

/** MCP content block types a host's result may hold besides text. */
export const RESULT_CONTENT_TYPES = ["text", "image", "audio", "resource_link", "resource"] as const;
export type ResultContentType = (typeof RESULT_CONTENT_TYPES)[number];

type BlockExtras = { annotations?: Record<string, unknown>; _meta?: Record<string, unknown> };
/**
 * One MCP content block as a host sends it (MCP's ContentBlock). Blocks other than text say
 * `text?: undefined`, so `result.content[0]?.text` still reads in a test.
 */
export type ResultContentBlock =
  | ({ type: "text"; text: string } & BlockExtras)
  | ({ type: "image" | "audio"; data: string; mimeType: string; text?: undefined } & BlockExtras)
  | ({
      type: "resource_link";
      uri: string;
      name: string;
      title?: string;
      description?: string;
      mimeType?: string;
      size?: number;
      text?: undefined;
    } & BlockExtras)
  | ({
      type: "resource";
      resource: { uri: string; mimeType?: string; text?: string; blob?: string };
      text?: undefined;
    } & BlockExtras);

/** Characters (code points) in a text, as the limit counts them. */
export function characters(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Why an output would reach the agent as a failure of its call; null when it is accepted. */
export function checkResultOutput(output: string): ContractFailure<ResultFailureCode> | null {
  if (output.includes("\u0000"))
    return { code: "TOOL_RESULT_NUL", message: "The SDK Tool Host's output contains a NUL character.", details: {} };
  const maxChars = L.SDK_RESULT_OUTPUT_CHARS.value;
  // Cheap bound first: a string has at least as many UTF-16 units as characters.
  const measured = output.length > maxChars ? characters(output) : 0;
  if (measured > maxChars)
    return {
      code: "TOOL_RESULT_TEXT_TOO_LONG",
      message: `The SDK Tool Host's output has ${fmt(measured)} characters; an output may have at most ${fmt(maxChars)}.`,
      details: { measured, limit: maxChars, unit: "characters" },
    };
  return null;
}

/** Why an error message would be refused; null when it is accepted. */
export function checkResultError(error: string): ContractFailure<ResultFailureCode> | null {
  return error.includes("\u0000")
    ? { code: "TOOL_RESULT_NUL", message: "The SDK Tool Host's error message contains a NUL character.", details: {} }
    : null;
}

/**
 * A submitted result as the Tool Host API takes it. An error with a `code` is a refusal the
 * host made for Quartermaster (INVALID_ARGUMENTS: a refinement its schema checks): the agent
 * gets it as Quartermaster's own failure with that code, and the call log records the code.
 */
export type SubmittedResult =
  | { output: string }
  | { error: string; code?: HostResultCode }
  | { content: ResultContentBlock[]; structuredContent?: Record<string, unknown> };

/** The MCP Tool Result an agent at /mcp gets for a submitted result. */
export interface ShapedToolResult {
  content: ResultContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
}

/**
 * A call Quartermaster failed, as the Tool Result its agent gets: the code first in the text,
 * for the model to read, and `structuredContent.error { code, message, …details }` for a program.
 */
export function failedToolResult(
  code: string,
  message: string,
  details: Record<string, unknown> = {},
): ShapedToolResult & { structuredContent: { error: Record<string, unknown> } } {
  return {
    content: [{ type: "text", text: `${code}: ${message}` }],
    structuredContent: { error: { code, message, ...details } },
    isError: true,
  };
}

/**
 * A host Tool declared with an output schema sends its value as JSON text (the contract's one
 * output string); clients that see the listed outputSchema refuse a result without
 * structuredContent, so a JSON object output travels as both, as the MCP spec recommends.
 */
function structuredOf(output: string): { structuredContent?: Record<string, unknown> } {
  if (!output.startsWith("{")) return {};
  try {
    const value: unknown = JSON.parse(output);
    return value && typeof value === "object" && !Array.isArray(value)
      ? { structuredContent: value as Record<string, unknown> }
      : {};
  } catch {
    return {};
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === "string";
// Base64 as MCP carries images and audio: a client decodes it, so a malformed one fails here, not there.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Why a content block is not one an MCP client can read; null when it is. */
function blockProblem(block: unknown, at: string): string | null {
  if (!isRecord(block)) return `${at} is not an object`;
  const mediaOk = (b: Record<string, unknown>) =>
    isString(b.data) && b.data.length % 4 === 0 && BASE64.test(b.data) && isString(b.mimeType) && b.mimeType !== "";
  switch (block.type) {
    case "text":
      return isString(block.text) ? null : `${at} (text) has no text`;
    case "image":
    case "audio":
      return mediaOk(block) ? null : `${at} (${block.type}) needs base64 data and a mimeType`;
    case "resource_link":
      return isString(block.uri) && block.uri !== "" && isString(block.name)
        ? null
        : `${at} (resource_link) needs a uri and a name`;
    case "resource": {
      const r = block.resource;
      return isRecord(r) && isString(r.uri) && (isString(r.text) || isString(r.blob))
        ? null
        : `${at} (resource) needs resource.uri and resource.text or resource.blob`;
    }
    default:
      return `${at} has type ${JSON.stringify(block.type)}; a result's blocks are ${RESULT_CONTENT_TYPES.join(", ")}`;
  }
}

/** Why a content result would reach the agent as a failure of its call; null when it is accepted. */
export function checkResultContent(
  content: unknown,
  structuredContent?: unknown,
): ContractFailure<ResultFailureCode> | null {
  const malformed = (message: string) => ({ code: "TOOL_RESULT_MALFORMED" as const, message, details: {} });
  if (!Array.isArray(content) || content.length === 0)
    return malformed("The SDK Tool Host's result has no content blocks.");
  for (const [index, block] of content.entries()) {
    const problem = blockProblem(block, `Content block ${index + 1}`);
    if (problem) return malformed(`${problem}.`);
    // Texts in blocks follow the rules an output follows.
    if ((block as { type: string }).type === "text") {
      const failure = checkResultOutput((block as { text: string }).text);
      if (failure) return failure;
    }
  }
  if (structuredContent !== undefined && !isRecord(structuredContent))
    return malformed("The SDK Tool Host's structuredContent is not a JSON object.");
  return null;
}

/**
 * What the agent gets for a submitted result, or why its call fails instead: Quartermaster
 * answers /mcp with this, and the SDK's testing harness shows a developer the same.
 */
export function shapeToolResult(
  submitted: SubmittedResult,
): { ok: true; value: ShapedToolResult } | { ok: false; failure: ContractFailure<ResultFailureCode | HostResultCode> } {
  if ("content" in submitted) {
    const failure = checkResultContent(submitted.content, submitted.structuredContent);
    if (failure) return { ok: false, failure };
    return {
      ok: true,
      value: {
        content: submitted.content,
        ...(submitted.structuredContent ? { structuredContent: submitted.structuredContent } : {}),
      },
    };
  }
  const failure = "error" in submitted ? checkResultError(submitted.error) : checkResultOutput(submitted.output);
  if (failure) return { ok: false, failure };
  if ("error" in submitted && submitted.code)
    return { ok: false, failure: { code: submitted.code, message: submitted.error, details: {} } };
  return {
    ok: true,
    value:
      "error" in submitted
        ? { content: [{ type: "text", text: submitted.error }], isError: true }
        : { content: [{ type: "text", text: submitted.output }], ...structuredOf(submitted.output) },
  };
}
