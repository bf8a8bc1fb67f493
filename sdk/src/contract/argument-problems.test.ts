import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeZodIssues, formatRule } from "./argument-problems.ts";

const problems = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error("accepted");
  return describeZodIssues(parsed.error.issues);
};

describe("zod's refusals in the words Quartermaster uses for a JSON Schema refusal", () => {
  it("names each field with its rule, as ajv's wording on the server does", () => {
    const schema = z.strictObject({
      status: z.enum(["open", "closed"]),
      after: z.iso.date(),
      at: z.iso.datetime(),
      limit: z.number().int().min(1),
      title: z.string().min(2),
      lines: z.array(z.object({ sku: z.string() })).min(1),
    });
    expect(
      problems(schema, { status: "pending", after: "2026-13-01", at: "soon", limit: 0, title: "x", lines: [] }),
    ).toBe(
      [
        'status: must be one of ["open","closed"]',
        "after: must be a YYYY-MM-DD date",
        "at: must be a date and time in ISO 8601 form, e.g. 2026-05-04T09:30:00Z",
        "limit: must be >= 1",
        "title: must NOT have fewer than 2 characters",
      ].join("; "),
    );
    expect(problems(schema.pick({ lines: true }), { lines: [{}] })).toBe("lines.0.sku is required");
    expect(problems(z.object({ n: z.number().int() }), { n: 1.5 })).toBe("n: must be integer");
    expect(problems(z.object({ n: z.number() }), { n: "1" })).toBe("n: must be number");
  });

  it("refuses each unknown argument of a strict object by name, and words a refinement with its own message", () => {
    expect(problems(z.strictObject({ a: z.string() }), { a: "1", priorty: 1, colour: 2 })).toBe(
      "priorty: is not an argument of this Tool; colour: is not an argument of this Tool",
    );
    const notFuture = z.object({ d: z.string().refine((v) => v < "2100", "must not be in the future") });
    expect(problems(notFuture, { d: "2999-01-01" })).toBe("d: must not be in the future");
    const whole = z
      .object({ from: z.number(), to: z.number() })
      .refine((r) => r.from <= r.to, "from must not be after to");
    expect(problems(whole, { from: 2, to: 1 })).toBe("arguments: from must not be after to");
  });

  it("says a format's rule in words, and names a format it has no words for", () => {
    expect(formatRule("date")).toBe("must be a YYYY-MM-DD date");
    expect(formatRule("hostname")).toBe('must match format "hostname"');
  });
});
