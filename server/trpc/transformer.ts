/**
 * superjson on the wire, with the input checked before superjson reads it: superjson
 * walks its metadata recursively and assumes the {json, meta} shape, so a null input or
 * one nested some thousands of levels used to fail inside it, and its internal message
 * ("Cannot destructure property 'json' …", "Maximum call stack size exceeded") was sent
 * back. Now such input is refused with INVALID_INPUT and a sentence saying what to send.
 */
import superjson from "superjson";
import { measureSchemas } from "../domain/catalog/schema-measure";
import { DomainError } from "../errors";
import { LIMITS } from "../limits";

const SHAPE = 'input: send it as superjson, {"json": <input>} (e.g. {"json": {"id": "…"}}), or no input at all.';

function deserializeInput(raw: unknown): unknown {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw new DomainError("INVALID_INPUT", SHAPE, { field: "input" });
  const keys = Object.keys(raw);
  if (keys.length && !keys.includes("json")) throw new DomainError("INVALID_INPUT", SHAPE, { field: "input" });
  // One level for the {json, meta} wrapper.
  const maxDepth = LIMITS.JSON_DEPTH.value + 1;
  const measured = measureSchemas([raw], { depth: maxDepth, nodes: Number.POSITIVE_INFINITY });
  if (measured.exceeded)
    throw new DomainError(
      "INVALID_INPUT",
      `input: nested more than ${LIMITS.JSON_DEPTH.value} levels deep; API input may nest at most ${LIMITS.JSON_DEPTH.value}.`,
      { field: "input", measured: measured.depth, limit: LIMITS.JSON_DEPTH.value },
    );
  try {
    return superjson.deserialize(raw as Parameters<typeof superjson.deserialize>[0]);
  } catch {
    throw new DomainError("INVALID_INPUT", `input: its superjson "meta" does not match its "json".`, {
      field: "input",
    });
  }
}

export const transformer = {
  input: { serialize: superjson.serialize, deserialize: deserializeInput },
  output: { serialize: superjson.serialize, deserialize: superjson.deserialize },
};
