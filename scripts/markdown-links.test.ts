import { describe, expect, it } from "vitest";
import { outsideLinks } from "./markdown-links";

const root = "/repo";
const files = new Set(["/repo/docs/mcp.md", "/repo/README.md", "/repo/docs/decisions"]);
const check = (md: string, dir = "/repo/docs") => outsideLinks(md, { root, dir, exists: (f) => files.has(f) });

describe("outsideLinks", () => {
  it("accepts links inside the repository, with anchors, titles and angle brackets", () => {
    expect(check('See [mcp](mcp.md#errors), [home](../README.md "t"), [d](<decisions/>) and [top](#x).')).toEqual([]);
  });

  it("finds web addresses in every link form and bare in prose", () => {
    const md = [
      "[a](https://pglite.dev)",
      "![img](http://x.test/a.png)",
      "[ref]: https://example.com/ref",
      "<mailto:someone@example.com>",
      "read more at https://bare.example/page.",
    ].join("\n");
    expect(check(md).map((p) => [p.line, p.why])).toEqual([
      [1, "web address"],
      [2, "web address"],
      [3, "web address"],
      [4, "web address"],
      [5, "web address"],
    ]);
  });

  it("finds relative links that climb out of the root and ones that point at nothing", () => {
    expect(check("[spec](../../shared/spec/PRODUCT.md) and [gone](nope.md)")).toEqual([
      { line: 1, target: "../../shared/spec/PRODUCT.md", why: "outside the repository" },
      { line: 1, target: "nope.md", why: "missing file" },
    ]);
    expect(check("[spec](../shared/spec/PRODUCT.md)", root)[0]?.why).toBe("outside the repository");
  });

  it("ignores examples in code blocks and code spans", () => {
    const md = [
      "```sh",
      "curl https://mcp.example.com/mcp",
      "[x](https://a.b)",
      "```",
      "Use `https://host/mcp` or ``[y](../../z)``.",
    ].join("\n");
    expect(check(md)).toEqual([]);
  });

  it("counts lines after a code block truly", () => {
    expect(check(["```", "a", "```", "[x](https://a.b)"].join("\n"))[0]?.line).toBe(4);
  });
});
