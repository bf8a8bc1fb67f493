/**
 * Reference Tools for the budget's planning estimate ("about 15,000 small, 7,000
 * mid-sized or 2,800 large Tools"): a small Tool has 3 parameters and a short
 * description; a large one 10 parameters and a 1,000-character description. The
 * estimate divides free bytes by their model-facing size, so it moves with the same
 * canonical serialization the budget counts.
 */
import { utf8Bytes } from "../catalog/canonical";
import { modelFacingDefinition } from "../catalog/validate-tool";

export type ReferenceSize = "small" | "mid" | "large";

const WORDS = "the of and to for with by on from record account status date owner value reference".split(" ");

function prose(chars: number): string {
  let text = "";
  for (let i = 0; text.length < chars; i++) text += `${WORDS[i % WORDS.length]} `;
  return `${text.slice(0, chars - 1).trimEnd()}.`.padEnd(chars, ".");
}

function parameter(i: number, descriptionChars: number) {
  const types = ["string", "integer", "boolean", "string"] as const;
  const type = types[i % types.length];
  return [`param_${i}`, descriptionChars ? { type, description: prose(descriptionChars) } : { type }] as const;
}

const SHAPES: Record<ReferenceSize, { name: string; params: number; paramChars: number; descriptionChars: number }> = {
  small: { name: "get_record", params: 3, paramChars: 0, descriptionChars: 80 },
  mid: { name: "search_records", params: 6, paramChars: 12, descriptionChars: 150 },
  large: { name: "create_record_entry", params: 10, paramChars: 0, descriptionChars: 1000 },
};

export function referenceTool(size: ReferenceSize) {
  const shape = SHAPES[size];
  const params = Array.from({ length: shape.params }, (_, i) => parameter(i, shape.paramChars));
  return {
    name: shape.name,
    description: prose(shape.descriptionChars),
    inputSchema: {
      type: "object",
      properties: Object.fromEntries(params),
      required: params.slice(0, 2).map(([n]) => n),
    },
  };
}

export function referenceToolBytes(size: ReferenceSize): number {
  const tool = referenceTool(size);
  return utf8Bytes(modelFacingDefinition(tool, tool.name));
}

export const REFERENCE_BYTES: Record<ReferenceSize, number> = {
  small: referenceToolBytes("small"),
  mid: referenceToolBytes("mid"),
  large: referenceToolBytes("large"),
};
