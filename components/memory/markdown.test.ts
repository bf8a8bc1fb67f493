import { describe, expect, it } from "vitest";
import { parseInline, parseMarkdown, safeHref } from "./markdown";

describe("memory Markdown", () => {
  it("reads headings, lists, code blocks, quotes and paragraphs with their line breaks", () => {
    const blocks = parseMarkdown(
      "# Decision: canary\n\nWhy:\nthree incidents.\n\n- one\n- two\n  more\n\n1. first\n2. second\n\n```sql\nSELECT 1;\n```\n\n> quoted\n\n---",
    );
    expect(blocks.map((b) => b.type)).toEqual(["heading", "paragraph", "list", "list", "code", "quote", "hr"]);
    expect(blocks[0]).toMatchObject({ level: 1, children: [{ type: "text", text: "Decision: canary" }] });
    expect(blocks[1]).toEqual({
      type: "paragraph",
      children: [{ type: "text", text: "Why:" }, { type: "br" }, { type: "text", text: "three incidents." }],
    });
    expect(blocks[2]).toMatchObject({
      ordered: false,
      items: [[{ text: "one" }], [{ text: "two" }, { type: "br" }, { text: "more" }]],
    });
    expect(blocks[3]).toMatchObject({ ordered: true, start: 1 });
    expect(blocks[4]).toEqual({ type: "code", lang: "sql", text: "SELECT 1;" });
  });

  it("keeps HTML as text: a body cannot inject markup", () => {
    const blocks = parseMarkdown('<script>alert("x")</script>\n<img src=x onerror=alert(1)>');
    expect(blocks).toEqual([
      {
        type: "paragraph",
        children: [
          { type: "text", text: '<script>alert("x")</script>' },
          { type: "br" },
          { type: "text", text: "<img src=x onerror=alert(1)>" },
        ],
      },
    ]);
  });

  it("links only to http, https and mailto targets; others keep their words without a link", () => {
    expect(parseInline("[docs](https://example.com/a) and [bad](javascript:alert(1))")).toEqual([
      { type: "link", href: "https://example.com/a", children: [{ type: "text", text: "docs" }] },
      { type: "text", text: " and " },
      { type: "text", text: "bad" },
      { type: "text", text: ")" },
    ]);
    expect(safeHref("data:text/html,<b>x</b>")).toBeNull();
    expect(safeHref(" JAVASCRIPT:alert(1)")).toBeNull();
    expect(safeHref("mailto:oncall@example.com")).toBe("mailto:oncall@example.com");
    expect(parseInline("see https://status.example.com/incidents/42.")).toEqual([
      { type: "text", text: "see " },
      {
        type: "link",
        href: "https://status.example.com/incidents/42",
        children: [{ type: "text", text: "https://status.example.com/incidents/42" }],
      },
      { type: "text", text: "." },
    ]);
  });

  it("reads inline code, strong and emphasis, but leaves snake_case names alone", () => {
    expect(parseInline("the `Idempotency-Key` header is **required** for *every* write")).toEqual([
      { type: "text", text: "the " },
      { type: "code", text: "Idempotency-Key" },
      { type: "text", text: " header is " },
      { type: "strong", children: [{ type: "text", text: "required" }] },
      { type: "text", text: " for " },
      { type: "em", children: [{ type: "text", text: "every" }] },
      { type: "text", text: " write" },
    ]);
    expect(parseInline("the strict_idempotency and checkout_v2_beta flags")).toEqual([
      { type: "text", text: "the strict_idempotency and checkout_v2_beta flags" },
    ]);
    expect(parseInline("2 * 3 * 4")).toEqual([{ type: "text", text: "2 * 3 * 4" }]);
  });
});
