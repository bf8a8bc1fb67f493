import { describe, expect, it } from "vitest";
import { LIMITS } from "../../limits";
import { ZCreateMcpConnectionInput } from "./schemas";

describe("Source names", () => {
  const limit = LIMITS.MCP_CONNECTION_NAME_CHARS.value;
  const parse = (name: string) => ZCreateMcpConnectionInput.safeParse({ name, url: "https://mcp.example.com/mcp" });

  it(`count characters, not UTF-16 units: ${limit} emoji pass, ${limit + 1} do not`, () => {
    expect(parse("🧰".repeat(limit)).success).toBe(true);
    const over = parse("🧰".repeat(limit + 1));
    expect(over.success).toBe(false);
    expect(over.error?.issues[0]?.message).toBe(`must be at most ${limit} characters`);
  });
});
