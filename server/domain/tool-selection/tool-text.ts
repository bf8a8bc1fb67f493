/**
 * What the scorer reads of a Tool: everything a model is shown when it picks one — its
 * name, title, description, and each parameter's name and description (and a string
 * enum's values, which for a Tool like `threads` name what it can do). Each part counts
 * with a weight: a name is short and chosen with care, a parameter's wording matters less
 * than the description's.
 */
import { terms } from "./text";

export interface ToolText {
  name: string;
  /**
   * When the name a model sees also says where the Tool comes from (a catalog Tool's
   * model-facing name, made unique with its Source's name), the name as its publisher gave
   * it: that counts as the name, and `name` only as much as a parameter, so one Tool
   * published by two Sources reads as the near-copy it is.
   */
  nativeName?: string;
  title?: string | null;
  description: string;
  /** The Tool's input JSON Schema; only top-level properties are read. */
  inputSchema?: unknown;
  /** Its Source's name: find_tools ranks by it, similarity between Tools does not. */
  sourceName?: string;
}

export const FIELD_WEIGHTS = {
  name: 2,
  /** A model-facing name that adds its Source's name to the native one. */
  qualifiedName: 0.5,
  title: 1,
  description: 1,
  parameterName: 0.5,
  parameterDescription: 0.5,
  /** Only in find_tools' ranking. */
  sourceName: 0.5,
} as const;

interface SchemaProperty {
  description?: unknown;
  enum?: unknown;
  items?: { enum?: unknown };
}

/** Top-level parameters of an input schema, sorted by name so their order never matters. */
export function parametersOf(inputSchema: unknown): { name: string; text: string }[] {
  if (!inputSchema || typeof inputSchema !== "object") return [];
  const properties = (inputSchema as { properties?: unknown }).properties;
  if (!properties || typeof properties !== "object") return [];
  return Object.entries(properties as Record<string, SchemaProperty | undefined>)
    .map(([name, p]) => {
      const parts: string[] = [];
      if (p && typeof p.description === "string") parts.push(p.description);
      const values = p && (Array.isArray(p.enum) ? p.enum : Array.isArray(p.items?.enum) ? p.items.enum : []);
      for (const v of values ?? []) if (typeof v === "string") parts.push(v);
      return { name, text: parts.join(" ") };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Weighted term counts of a Tool (before tf-idf). */
export function weightedTerms(tool: ToolText): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (text: string | null | undefined, weight: number) => {
    if (!text) return;
    for (const term of terms(text)) counts.set(term, (counts.get(term) ?? 0) + weight);
  };
  if (tool.nativeName && tool.nativeName !== tool.name) {
    add(tool.nativeName, FIELD_WEIGHTS.name);
    add(tool.name, FIELD_WEIGHTS.qualifiedName);
  } else add(tool.name, FIELD_WEIGHTS.name);
  add(tool.title, FIELD_WEIGHTS.title);
  add(tool.description, FIELD_WEIGHTS.description);
  for (const p of parametersOf(tool.inputSchema)) {
    add(p.name, FIELD_WEIGHTS.parameterName);
    add(p.text, FIELD_WEIGHTS.parameterDescription);
  }
  return counts;
}

/** Everything of a Tool the scorer reads, as one text (for showing shared words). */
export function fullText(tool: ToolText): string {
  return [
    tool.name,
    tool.title ?? "",
    tool.description,
    ...parametersOf(tool.inputSchema).map((p) => `${p.name} ${p.text}`),
  ].join(" ");
}
