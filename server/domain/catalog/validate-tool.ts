import { LIMITS } from "../../limits";
import { canonicalJson, canonicalRecord, sha256, utf8Bytes } from "./canonical";
import { CheckFailure, fmt, fmtBytes } from "./failures";
import { measureSchemas } from "./schema-measure";

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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks one Tool as published (by an MCP server page or an SDK registration) against
 * the per-Tool limits. Throws CheckFailure naming the Tool, the measured value and the
 * limit; the caller fails the whole publication.
 */
export function validateToolDefinition(raw: unknown, position: { page?: number; index: number }): PublishedTool {
  const where = position.page ? `Tool #${position.index + 1} on page ${position.page}` : `Tool #${position.index + 1}`;
  if (!isObject(raw)) {
    throw new CheckFailure("CATALOG_MALFORMED_RESPONSE", `${where} is not a JSON object.`, { page: position.page });
  }
  const name = raw.name;
  if (typeof name !== "string") {
    throw new CheckFailure("CATALOG_MALFORMED_RESPONSE", `${where} has no string "name".`, { page: position.page });
  }
  const label = `Tool "${name.length > 80 ? `${name.slice(0, 80)}…` : name}"`;
  const nameChars = [...name].length;
  if (nameChars < LIMITS.TOOL_NAME_MIN_CHARS.value || nameChars > LIMITS.TOOL_NAME_MAX_CHARS.value) {
    throw new CheckFailure(
      "TOOL_NAME_INVALID",
      `${nameChars === 0 ? `${where} has an empty name` : `${label}'s native name is ${fmt(nameChars)} characters`}; names must be ${LIMITS.TOOL_NAME_MIN_CHARS.value}–${LIMITS.TOOL_NAME_MAX_CHARS.value} characters.`,
      { tool: name.slice(0, 200), measured: nameChars, limit: LIMITS.TOOL_NAME_MAX_CHARS.value, unit: "characters" },
    );
  }

  // Measured before anything serializes the definition: serializing recurses, and a
  // schema nested some thousands of levels would overflow the stack instead of failing here.
  const measure = measureSchemas([raw.inputSchema, raw.outputSchema], {
    depth: LIMITS.SCHEMA_DEPTH.value,
    nodes: LIMITS.SCHEMA_NODES.value,
  });
  if (measure.exceeded === "depth") {
    throw new CheckFailure(
      "TOOL_SCHEMA_TOO_DEEP",
      `${label}'s JSON Schemas are more than ${fmt(LIMITS.SCHEMA_DEPTH.value)} levels deep (measured at least ${fmt(measure.depth)}).`,
      { tool: name, measured: measure.depth, limit: LIMITS.SCHEMA_DEPTH.value, unit: "levels" },
    );
  }
  if (measure.exceeded === "nodes") {
    throw new CheckFailure(
      "TOOL_SCHEMA_TOO_LARGE",
      `${label}'s input and output schemas have more than ${fmt(LIMITS.SCHEMA_NODES.value)} JSON nodes together (counted ${fmt(measure.nodes)} before stopping).`,
      { tool: name, measured: measure.nodes, limit: LIMITS.SCHEMA_NODES.value, unit: "nodes" },
    );
  }

  // The rest of the definition (annotations, _meta, …) may nest no deeper than a schema does.
  const rest = Object.keys(raw)
    .filter((key) => key !== "inputSchema" && key !== "outputSchema")
    .map((key) => raw[key]);
  const others = measureSchemas(rest, { depth: LIMITS.SCHEMA_DEPTH.value, nodes: Number.POSITIVE_INFINITY });
  if (others.exceeded) {
    throw new CheckFailure(
      "TOOL_DEFINITION_TOO_DEEP",
      `${label}'s definition is nested more than ${fmt(LIMITS.SCHEMA_DEPTH.value)} levels deep outside its schemas (measured at least ${fmt(others.depth)}).`,
      { tool: name, measured: others.depth, limit: LIMITS.SCHEMA_DEPTH.value, unit: "levels" },
    );
  }

  // The input schema's text is part of the definition's; it is serialized once for both.
  const inputSchemaJson = canonicalJson(raw.inputSchema);
  const definition = canonicalRecord(raw, { inputSchema: inputSchemaJson });
  const definitionBytes = utf8Bytes(definition);
  if (definitionBytes > LIMITS.TOOL_DEFINITION_BYTES.value) {
    throw new CheckFailure(
      "TOOL_DEFINITION_TOO_LARGE",
      `${label}'s definition is ${fmtBytes(definitionBytes)}; one Tool definition may be at most ${fmtBytes(LIMITS.TOOL_DEFINITION_BYTES.value)}.`,
      { tool: name, measured: definitionBytes, limit: LIMITS.TOOL_DEFINITION_BYTES.value, unit: "bytes" },
    );
  }

  const description = raw.description ?? "";
  if (typeof description !== "string") {
    throw new CheckFailure("CATALOG_MALFORMED_RESPONSE", `${label}'s "description" is not a string.`, { tool: name });
  }
  const descriptionChars = [...description].length;
  if (descriptionChars > LIMITS.TOOL_DESCRIPTION_CHARS.value) {
    throw new CheckFailure(
      "TOOL_DESCRIPTION_TOO_LONG",
      `${label}'s description is ${fmt(descriptionChars)} characters; at most ${fmt(LIMITS.TOOL_DESCRIPTION_CHARS.value)} are allowed.`,
      { tool: name, measured: descriptionChars, limit: LIMITS.TOOL_DESCRIPTION_CHARS.value, unit: "characters" },
    );
  }

  // The schema must be there and be JSON Schema-shaped (an object or a boolean schema);
  // whether a model can take it is a compatibility question, not a publication failure.
  const inputSchema = raw.inputSchema;
  if (!isObject(inputSchema) && typeof inputSchema !== "boolean") {
    throw new CheckFailure("CATALOG_MALFORMED_RESPONSE", `${label} has no "inputSchema" object.`, { tool: name });
  }
  const outputSchema = raw.outputSchema;
  if (outputSchema !== undefined && !isObject(outputSchema) && typeof outputSchema !== "boolean") {
    throw new CheckFailure("CATALOG_MALFORMED_RESPONSE", `${label}'s "outputSchema" is not an object.`, { tool: name });
  }

  const title = typeof raw.title === "string" ? raw.title : null;
  return {
    nativeName: name,
    title,
    description,
    inputSchema,
    canonical: definition,
    inputSchemaBytes: utf8Bytes(inputSchemaJson),
    definitionBytes,
    definitionHash: sha256(definition),
  };
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
