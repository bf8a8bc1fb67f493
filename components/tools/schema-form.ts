/**
 * A form from a Tool's input schema, as an operator fills it in to try the Tool: one field
 * per top-level argument, required ones first; a string enum becomes a menu, strings,
 * numbers and booleans their own controls, and anything else (objects, arrays, unions) a
 * JSON editor of its own. A schema with no usable properties is edited as JSON whole.
 */
export type FieldKind = "text" | "number" | "integer" | "boolean" | "enum" | "json";

export interface FormField {
  name: string;
  kind: FieldKind;
  required: boolean;
  description: string;
  options: string[];
  /** A placeholder from the schema's default or first example. */
  hint: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function kindOf(schema: unknown): { kind: FieldKind; options: string[] } {
  if (!isObject(schema)) return { kind: "json", options: [] };
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every((v) => typeof v === "string"))
    return { kind: "enum", options: schema.enum as string[] };
  const type = Array.isArray(schema.type)
    ? (schema.type as unknown[]).filter((t) => t !== "null")
    : schema.type === undefined
      ? []
      : [schema.type];
  if (type.length !== 1) return { kind: "json", options: [] };
  if (type[0] === "string") return { kind: "text", options: [] };
  if (type[0] === "number") return { kind: "number", options: [] };
  if (type[0] === "integer") return { kind: "integer", options: [] };
  if (type[0] === "boolean") return { kind: "boolean", options: [] };
  return { kind: "json", options: [] };
}

/** The fields of a schema, required first (each group in the schema's order); null when it has none to show. */
export function formFields(inputSchema: unknown): FormField[] | null {
  if (!isObject(inputSchema) || !isObject(inputSchema.properties)) return null;
  const required = new Set(Array.isArray(inputSchema.required) ? inputSchema.required.map(String) : []);
  const fields = Object.entries(inputSchema.properties).map(([name, schema]) => {
    const { kind, options } = kindOf(schema);
    const s = isObject(schema) ? schema : {};
    const example = s.default ?? (Array.isArray(s.examples) ? s.examples[0] : undefined);
    return {
      name,
      kind,
      required: required.has(name),
      description: typeof s.description === "string" ? s.description : "",
      options,
      hint: example === undefined ? "" : typeof example === "string" ? example : JSON.stringify(example),
    };
  });
  return [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)];
}

/**
 * The arguments object from the form's values (strings as typed), or the problems by
 * field. An empty optional field is left out; an empty required one is a problem.
 */
export function argumentsFrom(
  fields: FormField[],
  values: Record<string, string>,
): { arguments: Record<string, unknown>; problems: Record<string, string> } {
  const args: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  for (const f of fields) {
    const raw = values[f.name] ?? "";
    if (raw.trim() === "") {
      if (f.required) problems[f.name] = "Required.";
      continue;
    }
    if (f.kind === "text" || f.kind === "enum") args[f.name] = raw;
    else if (f.kind === "boolean") args[f.name] = raw === "true";
    else if (f.kind === "number" || f.kind === "integer") {
      const n = Number(raw);
      if (!Number.isFinite(n)) problems[f.name] = "Enter a number.";
      else if (f.kind === "integer" && !Number.isInteger(n)) problems[f.name] = "Enter a whole number.";
      else args[f.name] = n;
    } else {
      try {
        args[f.name] = JSON.parse(raw);
      } catch (error) {
        problems[f.name] = `Not valid JSON: ${(error as Error).message}`;
      }
    }
  }
  return { arguments: args, problems };
}

/** The whole arguments object from the JSON editor, or why it cannot be one. */
export function argumentsFromJson(text: string): { arguments?: Record<string, unknown>; problem?: string } {
  if (!text.trim()) return { arguments: {} };
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!isObject(parsed)) return { problem: 'The arguments must be a JSON object, e.g. {"query": "…"}.' };
    return { arguments: parsed };
  } catch (error) {
    return { problem: `Not valid JSON: ${(error as Error).message}` };
  }
}
