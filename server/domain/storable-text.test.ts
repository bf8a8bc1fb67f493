import { describe, expect, it } from "vitest";
import { unstorableText } from "./storable-text";

describe("unstorableText", () => {
  it("passes any well-formed text, surrogate pairs (emoji) included", () => {
    expect(unstorableText({ body: "Deploys 🚀 on Fridays", tags: ["ü", "日本"], n: 3, at: new Date() })).toBeNull();
  });
  it("names the path of the first NUL or lone surrogate, in strings and keys", () => {
    expect(unstorableText({ body: "a\u0000b" })).toMatchObject({
      path: "body",
      reason: expect.stringContaining("NUL"),
    });
    expect(unstorableText({ facts: [{ value: "x" }, { value: "\uD83D" }] })?.path).toBe("facts.1.value");
    expect(unstorableText({ q: "\uDE00x" })?.reason).toContain("lone UTF-16 surrogate");
    expect(unstorableText({ evidence: { "k\u0000": 1 } })?.path).toBe("evidence");
    expect(unstorableText("\u0000")?.path).toBe("input");
  });
});
