import { type Checked, type CheckedTool, checkToolDefinition } from "@/sdk/src/contract/tool-checks";
import { DomainError } from "../../errors";
import { canonicalJson, sha256, utf8Bytes } from "./canonical";

/**
 * A Tool definition that passed every per-Tool limit, ready to publish: only what
 * publication needs, so a check holding 4,096 of them does not also hold every parsed page.
 */
export interface PublishedTool {
  nativeName: string;
  title: string | null;
  description: string;
  /** Judged for model compatibility when the Tool is new or changed. */
  inputSchema: unknown;
  /** The definition as canonical JSON: what is stored, sized and hashed. */
  canonical: string;
  /** UTF-8 bytes of the input schema's canonical JSON (sizes the model-facing definition). */
  inputSchemaBytes: number;
  definitionBytes: number;
  definitionHash: string;
}

/**
 * Checks one Tool as published (by an MCP server page or an SDK registration) against
 * the per-Tool limits. Throws CheckFailure naming the Tool, the measured value and the
 * limit; the caller fails the whole publication. The checks themselves are the SDK Tool
 * Host contract's (sdk/src/contract/tool-checks.ts), so the SDK refuses the same Tools.
 */
export function validateToolDefinition(raw: unknown, position: { page?: number; index: number }): PublishedTool {
  return published(checkToolDefinition(raw, position));
}

/** A contract check's verdict as a PublishedTool, or the CheckFailure it names. */
export function published(checked: Checked<CheckedTool>): PublishedTool {
  if (!checked.ok) throw new DomainError(checked.failure.code, checked.failure.message, checked.failure.details);
  const { name, ...tool } = checked.value;
  return { nativeName: name, ...tool, definitionHash: sha256(tool.canonical) };
}

/** The definition a model is offered: what counts against an identity's budget. */
export function modelFacingDefinition(
  tool: { description: string; inputSchema: unknown },
  modelFacingName: string,
): string {
  return canonicalJson({ name: modelFacingName, description: tool.description, inputSchema: tool.inputSchema });
}

/** UTF-8 bytes of modelFacingDefinition(tool, name), without serializing the schema again. */
export function modelFacingBytes(tool: { description: string; inputSchemaBytes: number }, modelFacingName: string) {
  // The same members in the same (sorted) order as modelFacingDefinition writes them.
  const frame = `{"description":${JSON.stringify(tool.description)},"inputSchema":,"name":${JSON.stringify(modelFacingName)}}`;
  return utf8Bytes(frame) + tool.inputSchemaBytes;
}
