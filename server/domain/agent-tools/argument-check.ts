/**
 * Catalog Tool arguments are checked against the Tool's input schema (JSON Schema 2020-12,
 * MCP's default dialect) before anything is forwarded: a model that breaks the schema gets
 * an isError result naming the argument and the rule (INVALID_ARGUMENTS), which it can fix,
 * instead of whatever the Source makes of it. Validators are compiled once per definition
 * hash (definitions are immutable under their hash) and kept in a bounded LRU.
 * A schema ajv cannot compile (a dialect quirk the catalog accepted) is not held against
 * the call: the call is forwarded unchecked and the Source judges it, as before.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { ARGUMENT_PROBLEMS_NAMED, formatRule } from "@/sdk/src/contract/argument-problems";
import { LIMITS } from "../../limits";
import { log } from "../../log";
import { in2020Dialect } from "./schema-dialect";

// ajv-formats is CommonJS: its default export arrives wrapped under ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

let ajv: Ajv2020 | null = null;
function validatorFactory(): Ajv2020 {
  if (!ajv) {
    // strict off: published schemas carry annotations and keywords ajv does not know.
    ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, logger: false });
    addFormats(ajv);
  }
  return ajv;
}

const cache = new Map<string, ValidateFunction | null>();

/** The validator for a definition; its schema is read (loadSchema) only on a cache miss. */
async function validatorFor(hash: string, loadSchema: () => Promise<unknown>): Promise<ValidateFunction | null> {
  if (cache.has(hash)) {
    const hit = cache.get(hash) ?? null;
    cache.delete(hash);
    cache.set(hash, hit);
    return hit;
  }
  let compiled: ValidateFunction | null = null;
  try {
    const { $schema: _dialect, $id: _id, ...rest } = ((await loadSchema()) ?? {}) as Record<string, unknown>;
    compiled = validatorFactory().compile(in2020Dialect(rest) as Record<string, unknown>);
  } catch (error) {
    log.warn({ err: error, definitionHash: hash }, "input schema not compilable; arguments forwarded unchecked");
  }
  cache.set(hash, compiled);
  while (cache.size > LIMITS.CATALOG_ARGUMENT_VALIDATORS.value) cache.delete(cache.keys().next().value as string);
  return compiled;
}

function describe(error: ErrorObject): string {
  const at = error.instancePath
    ? error.instancePath
        .slice(1)
        .split("/")
        .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
        .join(".")
    : "";
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${at ? `${at}.` : ""}${params.missingProperty} is required`;
    case "additionalProperties":
      return `${at ? `${at}.` : ""}${params.additionalProperty}: is not an argument of this Tool`;
    case "enum":
      return `${at || "arguments"}: must be one of ${JSON.stringify(params.allowedValues)}`;
    case "format":
      return `${at || "arguments"}: ${formatRule(String(params.format))}`;
    default:
      return `${at || "arguments"}: ${error.message ?? `breaks the rule "${error.keyword}"`}`;
  }
}

/** The problems with `args` under the Tool's input schema (at most five), or null when none. */
export async function checkToolArguments(
  hash: string,
  loadSchema: () => Promise<unknown>,
  args: Record<string, unknown>,
): Promise<string | null> {
  const validate = await validatorFor(hash, loadSchema);
  if (!validate || validate(args)) return null;
  const errors = validate.errors ?? [];
  // z.toJSONSchema publishes a format with the regex that checks it: the format's words say
  // it, and the regex beside them would only bury them.
  const formatted = new Set(errors.filter((e) => e.keyword === "format").map((e) => e.instancePath));
  const problems = [
    ...new Set(errors.filter((e) => !(e.keyword === "pattern" && formatted.has(e.instancePath))).map(describe)),
  ];
  return problems.slice(0, ARGUMENT_PROBLEMS_NAMED).join("; ");
}
