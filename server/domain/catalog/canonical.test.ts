import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical";

/** The same JSON value with every object's keys inserted in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value && typeof value === "object") {
    // fromEntries, not assignment: a "__proto__" key must stay an ordinary key.
    return Object.fromEntries(
      Object.keys(value)
        .reverse()
        .map((key) => [key, reversed((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

describe("canonical JSON", () => {
  it("is the same JSON, just as long as JSON.stringify's, whatever order keys were inserted in", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(text.length).toBe(JSON.stringify(value).length);
        expect(canonicalJson(reversed(value))).toBe(text);
      }),
    );
  });

  it("sorts keys as strings, integer-like ones included, and leaves out what JSON leaves out", () => {
    // JSON.stringify would put "10" and "9" first: objects list integer-like keys before others.
    expect(canonicalJson({ b: 1, "10": 2, a: 3, "9": 4, "": 5 })).toBe('{"":5,"10":2,"9":4,"a":3,"b":1}');
    expect(canonicalJson({ a: undefined, f: () => 1, n: 1 })).toBe('{"n":1}');
    expect(canonicalJson([undefined, 1])).toBe("[null,1]");
    expect(canonicalJson({ d: new Date(0) })).toBe('{"d":"1970-01-01T00:00:00.000Z"}');
  });
});
