import { describe, expect, it } from "vitest";
import { bearerToken, hashToken, newToken, tokenPrefix } from "./tokens";

describe("bearer tokens", () => {
  it("are 256-bit, kind-prefixed and never equal", () => {
    const a = newToken("qm_agent");
    expect(a).toMatch(/^qm_agent_[A-Za-z0-9_-]{43}$/);
    expect(newToken("qm_agent")).not.toBe(a);
  });

  it("hash to a stable SHA-256 and show only a recognisable prefix", () => {
    const token = "qm_key_a_b-cdefghijklmnop";
    expect(hashToken(token)).toBe(hashToken(token));
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    // Underscores inside the random part must not move the cut.
    expect(tokenPrefix(token)).toBe("qm_key_a_b-cd…");
    expect(tokenPrefix("plainvalue12345")).toBe("plainv…");
  });

  it("are read only from a well-formed Bearer header", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer   abc  ")).toBe("abc");
    expect(bearerToken("Basic abc")).toBeNull();
    expect(bearerToken("Bearer a b")).toBeNull();
    expect(bearerToken(null)).toBeNull();
  });
});
