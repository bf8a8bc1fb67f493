import { describe, expect, it } from "vitest";
import { AFTER_SIGN_IN, safeReturnPath, signInFor } from "./return-to";

describe("the page sign-in returns to", () => {
  it("keeps a console page with its query", () => {
    expect(safeReturnPath("/tools/sources/0b1e?tab=checks")).toBe("/tools/sources/0b1e?tab=checks");
    expect(signInFor("/tools/sources/0b1e")).toBe("/sign-in?next=%2Ftools%2Fsources%2F0b1e");
    expect(safeReturnPath("/memory/memories?q=x&_rsc=abc")).toBe("/memory/memories?q=x");
  });

  it("never leaves the origin, nor loops to sign-in or an API", () => {
    for (const hostile of [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "\\\\evil.example",
      "javascript:alert(1)",
      "/sign-in?next=/x",
      "/api/trpc/users.list",
      "/mcp",
      "/tools\nSet-Cookie: x",
      "",
      null,
    ])
      expect(safeReturnPath(hostile), String(hostile)).toBe(AFTER_SIGN_IN);
    expect(signInFor("https://evil.example/")).toBe("/sign-in");
  });
});
