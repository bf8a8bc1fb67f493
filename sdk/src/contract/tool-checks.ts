/**
 * The per-Tool and per-registration checks of the SDK Tool Host contract, written once:
 * Quartermaster runs them on every registration (and, per Tool, on every MCP catalog
 * page), and the SDK runs them before it sends anything, so a Tool over a limit is refused
 * at start-up with the code, message and details the server would answer.
 */
import { canonicalJson, canonicalRecord, utf8Bytes } from "./canonical.ts";
import { fmt, fmtBytes } from "./format.ts";
import { TOOL_HOST_LIMITS as L } from "./limits.ts";
import { measureSchemas } from "./schema-measure.ts";

/** Codes a registration (or one Tool in it) can be refused with; the HTTP status the server answers. */
export const REGISTRATION_FAILURE_STATUS = {
  REQUEST_BODY_TOO_LARGE: 413,
  TOO_MANY_TOOLS: 422,
  TOOL_SCHEMA_TOO_LARGE: 422,
  TOOL_SCHEMA_TOO_DEEP: 422,
  TOOL_DEFINITION_TOO_DEEP: 422,
  TOOL_DEFINITION_TOO_LARGE: 422,
  TOOL_NAME_INVALID: 422,
  TOOL_DESCRIPTION_TOO_LONG: 422,
  CATALOG_DUPLICATE_TOOL_NAME: 422,
  TOOL_TIMEOUT_INVALID: 422,
  CATALOG_MALFORMED_RESPONSE: 400,
} as const;
export type RegistrationFailureCode = keyof typeof REGISTRATION_FAILURE_STATUS;

export interface FailureDetails {
  measured?: number | string;
  limit?: number;
  unit?: string;
  tool?: string;
  page?: number;
  [key: string]: unknown;
}

export interface ContractFailure<C extends string = RegistrationFailureCode> {
  code: C;
  message: string;
  details: FailureDetails;
}

export type Checked<T, C extends string = RegistrationFailureCode> =
  | { ok: true; value: T }
  | { ok: false; failure: ContractFailure<C> };

const refuse = <C extends string>(code: C, message: string, details: FailureDetails = {}) =>
  ({ ok: false, failure: { code, message, details } }) as const;

/** One Tool that passed every per-Tool limit, with the texts the checks measured. */
export interface CheckedTool {
  name: string;
  title: string | null;
  description: string;
  inputSchema: unknown;
  /** The definition as canonical JSON: what Quartermaster stores, sizes and hashes. */
  canonical: string;
  /** UTF-8 bytes of the input schema's canonical JSON. */
  inputSchemaBytes: number;
  definitionBytes: number;
  /** An SDK registration's per-Tool call deadline, when the host declared one (not part of the definition). */
  timeoutSeconds?: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks one Tool as published (by an MCP server page or an SDK registration) against the
 * per-Tool limits; a failure names the Tool, the measured value and the limit.
 */
export function checkToolDefinition(raw: unknown, position: { page?: number; index: number }): Checked<CheckedTool> {
  const where = position.page ? `Tool #${position.index + 1} on page ${position.page}` : `Tool #${position.index + 1}`;
  if (!isObject(raw))
    return refuse("CATALOG_MALFORMED_RESPONSE", `${where} is not a JSON object.`, { page: position.page });
  const name = raw.name;
  if (typeof name !== "string")
    return refuse("CATALOG_MALFORMED_RESPONSE", `${where} has no string "name".`, { page: position.page });
  const label = `Tool "${name.length > 80 ? `${name.slice(0, 80)}…` : name}"`;
  const nameChars = [...name].length;
  if (nameChars < L.TOOL_NAME_MIN_CHARS.value || nameChars > L.TOOL_NAME_MAX_CHARS.value) {
    return refuse(
      "TOOL_NAME_INVALID",
      `${nameChars === 0 ? `${where} has an empty name` : `${label}'s native name is ${fmt(nameChars)} characters`}; names must be ${L.TOOL_NAME_MIN_CHARS.value}–${L.TOOL_NAME_MAX_CHARS.value} characters.`,
      { tool: name.slice(0, 200), measured: nameChars, limit: L.TOOL_NAME_MAX_CHARS.value, unit: "characters" },
    );
  }

  // Measured before anything serializes the definition: serializing recurses, and a
  // schema nested some thousands of levels would overflow the stack instead of failing here.
  const measure = measureSchemas([raw.inputSchema, raw.outputSchema], {
    depth: L.SCHEMA_DEPTH.value,
    nodes: L.SCHEMA_NODES.value,
  });
  if (measure.exceeded === "depth") {
    return refuse(
      "TOOL_SCHEMA_TOO_DEEP",
      `${label}'s JSON Schemas are more than ${fmt(L.SCHEMA_DEPTH.value)} levels deep (measured at least ${fmt(measure.depth)}).`,
      { tool: name, measured: measure.depth, limit: L.SCHEMA_DEPTH.value, unit: "levels" },
    );
  }
  if (measure.exceeded === "nodes") {
    return refuse(
      "TOOL_SCHEMA_TOO_LARGE",
      `${label}'s input and output schemas have more than ${fmt(L.SCHEMA_NODES.value)} JSON nodes together (counted ${fmt(measure.nodes)} before stopping).`,
      { tool: name, measured: measure.nodes, limit: L.SCHEMA_NODES.value, unit: "nodes" },
    );
  }

  // The rest of the definition (annotations, _meta, …) may nest no deeper than a schema does.
  const rest = Object.keys(raw)
    .filter((key) => key !== "inputSchema" && key !== "outputSchema")
    .map((key) => raw[key]);
  const others = measureSchemas(rest, { depth: L.SCHEMA_DEPTH.value, nodes: Number.POSITIVE_INFINITY });
  if (others.exceeded) {
    return refuse(
      "TOOL_DEFINITION_TOO_DEEP",
      `${label}'s definition is nested more than ${fmt(L.SCHEMA_DEPTH.value)} levels deep outside its schemas (measured at least ${fmt(others.depth)}).`,
      { tool: name, measured: others.depth, limit: L.SCHEMA_DEPTH.value, unit: "levels" },
    );
  }

  // The input schema's text is part of the definition's; it is serialized once for both.
  const inputSchemaJson = canonicalJson(raw.inputSchema);
  const definition = canonicalRecord(raw, { inputSchema: inputSchemaJson });
  const definitionBytes = utf8Bytes(definition);
  if (definitionBytes > L.TOOL_DEFINITION_BYTES.value) {
    return refuse(
      "TOOL_DEFINITION_TOO_LARGE",
      `${label}'s definition is ${fmtBytes(definitionBytes)}; one Tool definition may be at most ${fmtBytes(L.TOOL_DEFINITION_BYTES.value)}.`,
      { tool: name, measured: definitionBytes, limit: L.TOOL_DEFINITION_BYTES.value, unit: "bytes" },
    );
  }

  const description = raw.description ?? "";
  if (typeof description !== "string")
    return refuse("CATALOG_MALFORMED_RESPONSE", `${label}'s "description" is not a string.`, { tool: name });
  const descriptionChars = [...description].length;
  if (descriptionChars > L.TOOL_DESCRIPTION_CHARS.value) {
    return refuse(
      "TOOL_DESCRIPTION_TOO_LONG",
      `${label}'s description is ${fmt(descriptionChars)} characters; at most ${fmt(L.TOOL_DESCRIPTION_CHARS.value)} are allowed.`,
      { tool: name, measured: descriptionChars, limit: L.TOOL_DESCRIPTION_CHARS.value, unit: "characters" },
    );
  }

  // The schema must be there and be JSON Schema-shaped (an object or a boolean schema);
  // whether a model can take it is a compatibility question, not a publication failure.
  const inputSchema = raw.inputSchema;
  if (!isObject(inputSchema) && typeof inputSchema !== "boolean")
    return refuse("CATALOG_MALFORMED_RESPONSE", `${label} has no "inputSchema" object.`, { tool: name });
  const outputSchema = raw.outputSchema;
  if (outputSchema !== undefined && !isObject(outputSchema) && typeof outputSchema !== "boolean")
    return refuse("CATALOG_MALFORMED_RESPONSE", `${label}'s "outputSchema" is not an object.`, { tool: name });

  return {
    ok: true,
    value: {
      name,
      title: typeof raw.title === "string" ? raw.title : null,
      description,
      inputSchema,
      canonical: definition,
      inputSchemaBytes: utf8Bytes(inputSchemaJson),
      definitionBytes,
    },
  };
}

/**
 * One Tool of an SDK registration: every per-Tool limit (depth first, before anything
 * serializes it), then the SDK's ceiling on the input schema's canonical size.
 */
export function checkRegisteredTool(raw: unknown, index: number): Checked<CheckedTool> {
  const checked = checkToolDefinition(raw, { index });
  if (!checked.ok) return checked;
  const { name, inputSchemaBytes: bytes } = checked.value;
  if (bytes <= L.SDK_TOOL_INPUT_SCHEMA_BYTES.value) return checked;
  return refuse(
    "TOOL_SCHEMA_TOO_LARGE",
    `Tool "${name}"'s input schema is ${fmtBytes(bytes)}; an SDK Tool's input schema may be at most ${fmtBytes(L.SDK_TOOL_INPUT_SCHEMA_BYTES.value)}.`,
    { tool: name, measured: bytes, limit: L.SDK_TOOL_INPUT_SCHEMA_BYTES.value, unit: "bytes" },
  );
}

/**
 * A Tool's declared call deadline (`timeoutSeconds` beside its definition in a registration):
 * whole seconds, from 1 to the release's ceiling. A deadline above the ceiling is refused
 * rather than cut down, so a host never believes it has more time than an agent will wait.
 */
export function checkToolTimeout(tool: string, value: unknown): ContractFailure | null {
  const max = L.TOOL_CALL_TIMEOUT_MAX_SECONDS.value;
  if (typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= max) return null;
  const shown = typeof value === "number" ? fmt(value) : (JSON.stringify(value) ?? String(value));
  return {
    code: "TOOL_TIMEOUT_INVALID",
    message: `Tool "${tool}"'s timeoutSeconds is ${shown}; it must be a whole number of seconds from 1 to ${fmt(max)} (TOOL_CALL_TIMEOUT_MAX_SECONDS, the longest an SDK Tool's call may take in this release).`,
    details: {
      tool,
      field: "timeoutSeconds",
      ...(typeof value === "number" ? { measured: value } : {}),
      limit: max,
      unit: "seconds",
    },
  };
}

/** A registration entry split into the MCP Tool definition and Quartermaster's own `timeoutSeconds`. */
function withoutTimeout(raw: unknown): { definition: unknown; timeout: unknown } {
  if (!isObject(raw) || !("timeoutSeconds" in raw)) return { definition: raw, timeout: undefined };
  const { timeoutSeconds, ...definition } = raw;
  return { definition, timeout: timeoutSeconds };
}

/** A whole registration body ({ tools: [...] }), all or nothing: the first failure refuses it. */
export function checkRegistration(body: unknown): Checked<CheckedTool[]> {
  const tools = (body as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(tools))
    return refuse("CATALOG_MALFORMED_RESPONSE", 'The body must be a JSON object with a "tools" array.');
  if (tools.length > L.TOOLS_PER_SOURCE.value) {
    return refuse(
      "TOO_MANY_TOOLS",
      `The registration has ${fmt(tools.length)} Tools; one Source may publish at most ${fmt(L.TOOLS_PER_SOURCE.value)}.`,
      { measured: tools.length, limit: L.TOOLS_PER_SOURCE.value, unit: "Tools" },
    );
  }
  const names = new Set<string>();
  const checked: CheckedTool[] = [];
  for (const [index, raw] of tools.entries()) {
    const { definition, timeout } = withoutTimeout(raw);
    const tool = checkRegisteredTool(definition, index);
    if (!tool.ok) return tool;
    if (timeout !== undefined) {
      const refused = checkToolTimeout(tool.value.name, timeout);
      if (refused) return { ok: false, failure: refused };
      tool.value.timeoutSeconds = timeout as number;
    }
    if (names.has(tool.value.name)) {
      return refuse(
        "CATALOG_DUPLICATE_TOOL_NAME",
        `Two Tools are named "${tool.value.name}"; native names must be unique within a Source.`,
        { tool: tool.value.name },
      );
    }
    names.add(tool.value.name);
    checked.push(tool.value);
  }
  return { ok: true, value: checked };
}

/** What a host says it runs, e.g. { name: "@quartermaster/tool-host", version: "0.2.0" }. */
export interface HostInfo {
  name: string;
  version: string;
}

/**
 * A registration's optional `hostInfo` (shown to operators beside the host): absent is
 * fine, anything else must be two short strings, so a typo is refused rather than lost.
 */
export function checkHostInfo(body: unknown): Checked<HostInfo | null> {
  const info = (body as { hostInfo?: unknown } | null)?.hostInfo;
  if (info === undefined || info === null) return { ok: true, value: null };
  const max = L.HOST_INFO_CHARS.value;
  const fits = (v: unknown): v is string => typeof v === "string" && v.trim().length > 0 && [...v].length <= max;
  if (!isObject(info) || !fits(info.name) || !fits(info.version))
    return refuse(
      "CATALOG_MALFORMED_RESPONSE",
      `"hostInfo" must be { "name": string, "version": string }, each 1–${max} characters (what the host runs, e.g. { "name": "@quartermaster/tool-host", "version": "0.2.0" }).`,
      { field: "hostInfo", limit: max, unit: "characters" },
    );
  return { ok: true, value: { name: info.name.trim(), version: info.version.trim() } };
}

/** The body-size ceiling, on the exact text that would be sent. */
export function checkRegistrationBodyBytes(bytes: number): ContractFailure | null {
  if (bytes <= L.SDK_REGISTRATION_BODY_BYTES.value) return null;
  return {
    code: "REQUEST_BODY_TOO_LARGE",
    message: `The request body is ${fmtBytes(bytes)}; a registration may be at most ${fmtBytes(L.SDK_REGISTRATION_BODY_BYTES.value)}.`,
    details: { measured: bytes, limit: L.SDK_REGISTRATION_BODY_BYTES.value, unit: "bytes" },
  };
}
