import { describe, expect, it } from "vitest";
import { freePrefix } from "./prompt-prefix";

/** Whether any two of these prefixes could make one prompt name `<prefix>_<prompt>`. */
const ambiguous = (prefixes: string[]) =>
  prefixes.some((a, i) => prefixes.some((b, j) => i !== j && (a === b || a.startsWith(`${b}_`))));

describe("freePrefix", () => {
  it("keeps the slug when nothing clashes with it", () => {
    expect(freePrefix("docs_server", ["billing", "docs2"])).toBe("docs_server");
  });

  it("never nests under a prefix taken, either way round", () => {
    // Beside "docs", "docs_server" would make docs' server_status and its status one name.
    expect(freePrefix("docs_server", ["docs"])).toBe("docsserver");
    expect(freePrefix("docs", ["docs_server"])).toBe("docs2");
    expect(freePrefix("docs_server", ["docs", "docsserver"])).toBe("docsserver2");
  });

  it("gives distinct, unambiguous prefixes to many Sources of like names", () => {
    const taken: string[] = [];
    for (const base of ["docs", "docs_server", "docs", "docs_server_2", "docs_server", "docs2", "docsserver"])
      taken.push(freePrefix(base, taken));
    expect(new Set(taken).size).toBe(taken.length);
    expect(ambiguous(taken)).toBe(false);
  });
});
