/**
 * JSON with object keys sorted and no whitespace: the same value always serializes to
 * the same bytes, so sizes and hashes do not depend on how a server ordered its keys.
 * Written out by hand rather than with a JSON.stringify replacer, which copies every
 * object to sort it: catalog checks canonicalize up to 4 MiB per check.
 */
export function canonicalJson(value: unknown): string {
  return write(value) ?? "null";
}

function write(value: unknown): string | undefined {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return JSON.stringify(value);
    case "object":
      break;
    case "bigint":
      throw new TypeError("Do not know how to serialize a BigInt");
    default:
      return undefined; // undefined, functions and symbols are left out, as JSON.stringify does
  }
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") return write(toJSON.call(value));
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += `${i ? "," : ""}${write(value[i]) ?? "null"}`;
    return `${out}]`;
  }
  return canonicalRecord(value as Record<string, unknown>);
}

/**
 * The canonical JSON of a record. Members in `written` are already canonical text: a
 * caller that needs one member's text on its own (a Tool's input schema) serializes it
 * once, not twice.
 */
export function canonicalRecord(record: Record<string, unknown>, written?: Record<string, string>): string {
  let out = "{";
  for (const key of Object.keys(record).sort()) {
    const item = written && Object.hasOwn(written, key) ? written[key] : write(record[key]);
    if (item === undefined) continue;
    out += `${out.length > 1 ? "," : ""}${JSON.stringify(key)}:${item}`;
  }
  return `${out}}`;
}

const encoder = new TextEncoder();
const nodeBuffer = (globalThis as { Buffer?: { byteLength(text: string, encoding: "utf8"): number } }).Buffer;

/** UTF-8 length of a string: Node's native count where there is one, without encoding a copy. */
export const utf8Bytes: (text: string) => number = nodeBuffer
  ? (text) => nodeBuffer.byteLength(text, "utf8")
  : (text) => encoder.encode(text).byteLength;
