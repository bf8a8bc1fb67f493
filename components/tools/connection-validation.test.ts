import { describe, expect, it } from "vitest";
import { connectionProblems } from "./connection-validation";

describe("MCP Connection form problems", () => {
  it("names every field's problem at once, in plain words", () => {
    const problems = connectionProblems({
      name: "",
      url: "mcp.example.com",
      description: "x".repeat(1001),
      headers: { "Bad Header": "v" },
      checkIntervalSeconds: 3600,
    });
    expect(problems).toEqual({
      name: "Give the Connection a name.",
      url: "This is not a web address: write it in full, e.g. https://mcp.example.com/mcp.",
      description: "Description must be at most 1,000 characters.",
      headers: "“Bad Header” is not a header name: use letters, digits and dashes, no spaces.",
    });
  });

  it("asks for the address when it is missing, refuses other schemes, and passes a good form", () => {
    expect(connectionProblems({ name: "A", url: "", checkIntervalSeconds: 3600 }).url).toContain("Enter the server");
    expect(connectionProblems({ name: "A", url: "ftp://x.example/mcp", checkIntervalSeconds: 3600 }).url).toContain(
      "ftp://",
    );
    expect(connectionProblems({ name: "A", url: "https://mcp.example.com/mcp", checkIntervalSeconds: 3600 })).toEqual(
      {},
    );
  });
});
