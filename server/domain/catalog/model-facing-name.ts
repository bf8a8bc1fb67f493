import { createHash } from "node:crypto";
import { MODEL_FACING_NAME_PATTERN } from "../../limits";

const MAX = 64;

/**
 * The form some SDKs reduce a name to (the OpenAI Agents SDK rewrites names to
 * [a-zA-Z0-9_], and model APIs compare case-insensitively in places): two model-facing
 * names that fold to the same text would reach a model as one, so new names are
 * allocated unique in this form.
 */
export function foldModelFacingName(name: string): string {
  return name.replace(/-/g, "_").toLowerCase();
}

/** The native name made valid for model APIs: other characters become "_", cut at 64. */
export function baseModelFacingName(nativeName: string): string {
  const cleaned = nativeName.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, MAX);
  return cleaned.length ? cleaned : "tool";
}

function slug(text: string, max: number): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, max) || "source"
  );
}

function shortHash(text: string, length: number): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}

/**
 * A model-facing name for a newly published Compatible Tool, unique against `isTaken`.
 * Derived from the native name; when another Tool already has it, the Source's name is
 * prefixed (readable for the model), then a hash of Source and native name is added.
 * Deterministic: the same inputs and the same taken names give the same result.
 * Names already assigned are kept by the caller, which makes them stable across checks.
 */
export function assignModelFacingName(
  tool: { sourceId: string; sourceName: string; nativeName: string },
  isTaken: (name: string) => boolean,
): string {
  const base = baseModelFacingName(tool.nativeName);
  if (!isTaken(base)) return base;

  const prefixed = `${slug(tool.sourceName, 24)}_${base}`.slice(0, MAX);
  if (!isTaken(prefixed)) return prefixed;

  const hash = shortHash(`${tool.sourceId}\u0000${tool.nativeName}`, 8);
  for (let n = 0; ; n++) {
    const suffix = n === 0 ? `_${hash}` : `_${hash}${n}`;
    const candidate = `${base.slice(0, MAX - suffix.length)}${suffix}`;
    if (!isTaken(candidate)) return candidate;
  }
}

/**
 * The first names `assignModelFacingName` would try, in order, so a caller can learn in
 * one query which of them are taken.
 */
export function modelFacingNameCandidates(
  tool: { sourceId: string; sourceName: string; nativeName: string },
  count = 5,
): string[] {
  const tried: string[] = [];
  assignModelFacingName(tool, (name) => {
    tried.push(name);
    return tried.length < count;
  });
  return tried;
}

export function isValidModelFacingName(name: string): boolean {
  return MODEL_FACING_NAME_PATTERN.test(name);
}
