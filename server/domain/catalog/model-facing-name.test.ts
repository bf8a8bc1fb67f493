import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MODEL_FACING_NAME_PATTERN } from "../../limits";
import { assignModelFacingName, baseModelFacingName, modelFacingNameCandidates } from "./model-facing-name";

const nativeName = fc.oneof(
  fc.string({ minLength: 1, maxLength: 128 }),
  fc.stringMatching(/^[a-z_]{1,12}$/),
  fc.constantFrom("search", "get_user", "search-docs", "日本語ツール", "a.b/c d", "x".repeat(128)),
);
const tool = fc.record({ sourceId: fc.uuid(), sourceName: fc.string({ minLength: 1, maxLength: 100 }), nativeName });

function assignAll(tools: { sourceId: string; sourceName: string; nativeName: string }[], taken = new Set<string>()) {
  return tools.map((t) => {
    const name = assignModelFacingName(t, (n) => taken.has(n));
    taken.add(name);
    return name;
  });
}

describe("model-facing names", () => {
  it("are always valid for model APIs", () => {
    fc.assert(
      fc.property(fc.array(tool, { maxLength: 30 }), (tools) => {
        for (const name of assignAll(tools)) expect(name).toMatch(MODEL_FACING_NAME_PATTERN);
      }),
    );
  });

  it("are unique, even when many Sources publish the same native name", () => {
    fc.assert(
      fc.property(
        fc.array(tool, { maxLength: 40 }),
        fc.constantFrom("search", "x".repeat(128), "日本語"),
        (tools, shared) => {
          const all = [...tools, ...tools.map((t) => ({ ...t, nativeName: shared }))];
          const names = assignAll(all);
          expect(new Set(names).size).toBe(names.length);
        },
      ),
    );
  });

  it("are stable: the same Tools and taken names give the same names", () => {
    fc.assert(
      fc.property(
        fc.array(tool, { maxLength: 30 }),
        fc.array(fc.stringMatching(/^[a-z_]{1,12}$/), { maxLength: 10 }),
        (tools, pre) => {
          expect(assignAll(tools, new Set(pre))).toEqual(assignAll(tools, new Set(pre)));
        },
      ),
    );
  });

  it("are derived from the native name, readable first, hashed last", () => {
    expect(baseModelFacingName("search docs/v2")).toBe("search_docs_v2");
    expect(baseModelFacingName("")).toBe("tool");
    const t = { sourceId: "s1", sourceName: "Jira Cloud", nativeName: "search" };
    expect(assignModelFacingName(t, () => false)).toBe("search");
    expect(assignModelFacingName(t, (n) => n === "search")).toBe("jira_cloud_search");
    const third = assignModelFacingName(t, (n) => n === "search" || n === "jira_cloud_search");
    expect(third).toMatch(/^search_[0-9a-f]{8}$/);
    expect(modelFacingNameCandidates(t).slice(0, 3)).toEqual(["search", "jira_cloud_search", third]);
  });
});
