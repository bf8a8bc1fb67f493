/**
 * Results richer than one text: MCP content blocks (images, audio, resource links, embedded
 * resources) returned by a handler through toolResult(). The value is branded, so a handler
 * that returns a plain object is still sent as JSON, as before.
 */
import type { ResultContentBlock } from "./contract/result-checks.ts";

const RESULT = Symbol.for("@quartermaster/tool-host/tool-result");

/** A handler's result made of content blocks, with the output schema's value beside them when the Tool has one. */
export interface ToolResultValue<S = unknown> {
  readonly [RESULT]: true;
  readonly content: readonly ResultContentBlock[];
  readonly structured?: S;
}

/**
 * A result of MCP content blocks, e.g. `toolResult([{ type: "text", text: "Chart:" }, image(png, "image/png")])`.
 * With an `output` schema, pass its value as `structured`: it is checked against the schema
 * and sent as `structuredContent` (and as JSON text first, when no block is text).
 */
export function toolResult<S = undefined>(content: readonly ResultContentBlock[], structured?: S): ToolResultValue<S> {
  return { [RESULT]: true, content, ...(structured !== undefined ? { structured } : {}) };
}

export function isToolResultValue(value: unknown): value is ToolResultValue {
  return typeof value === "object" && value !== null && (value as { [RESULT]?: unknown })[RESULT] === true;
}

const base64 = (data: Uint8Array | string) => (typeof data === "string" ? data : Buffer.from(data).toString("base64"));

/** An image block: bytes (base64-encoded here) or a base64 string, and its MIME type. */
export function image(data: Uint8Array | string, mimeType: string): ResultContentBlock {
  return { type: "image", data: base64(data), mimeType };
}

/** An audio block: bytes (base64-encoded here) or a base64 string, and its MIME type. */
export function audio(data: Uint8Array | string, mimeType: string): ResultContentBlock {
  return { type: "audio", data: base64(data), mimeType };
}

/** A link to a resource the agent's client may fetch: `uri` and `name`, optionally title, description, mimeType, size. */
export function resourceLink(link: {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}): ResultContentBlock {
  return { type: "resource_link", ...link };
}
