import { describe, expect, it } from "vitest";
import { DomainError } from "../../errors";
import { listSurface, SURFACE_LIMITS } from "./surface-lister";

const failureOf = (error: unknown, where: string) =>
  new DomainError("CATALOG_REMOTE_ERROR", `The server answered ${where} with ${(error as Error).message}`);

function run(
  answers: Record<string, (cursor: string | undefined) => Record<string, unknown>>,
  capabilities: Record<string, unknown> | undefined = { resources: {}, prompts: {} },
  limits = SURFACE_LIMITS,
) {
  return listSurface({
    capabilities,
    failureOf,
    limits,
    request: async (method, cursor) => {
      const answer = answers[method];
      if (!answer) throw Object.assign(new Error("Method not found"), { code: -32601 });
      return answer(cursor);
    },
  });
}

const byKind = (lists: Awaited<ReturnType<typeof run>>) => Object.fromEntries(lists.map((l) => [l.kind, l]));

describe("listSurface", () => {
  it("asks for nothing the server does not advertise", async () => {
    const lists = byKind(await run({}, { tools: {} }));
    expect(Object.values(lists).map((l) => l.status)).toEqual(["not_offered", "not_offered", "not_offered"]);
  });

  it("a method the server lacks despite its capability is not offered; its other lists are read", async () => {
    const lists = byKind(
      await run({
        "resources/list": () => ({ resources: [{ uri: "a://1", name: "one", _meta: { x: 1 } }] }),
        "prompts/list": () => ({ prompts: [{ name: "p", arguments: [{ name: "x", required: true }, { bad: 1 }] }] }),
      }),
    );
    expect(lists.resource).toMatchObject({ status: "listed", pages: 1 });
    expect(lists.resource?.items[0]).toMatchObject({ name: "one", uri: "a://1" });
    expect(JSON.parse(lists.resource?.items[0]?.definition ?? "{}")).toEqual({
      uri: "a://1",
      name: "one",
      _meta: { x: 1 },
    });
    expect(lists.template?.status).toBe("not_offered");
    expect(lists.prompt?.items[0]?.arguments).toEqual([{ name: "x", required: true }]);
  });

  it("a cursor loop, a malformed page or an item without its URI fails that list only", async () => {
    const lists = byKind(
      await run({
        "resources/list": () => ({ resources: [{ uri: "a://1", name: "one" }], nextCursor: "same" }),
        "resources/templates/list": () => ({ resourceTemplates: [{ name: "no template" }] }),
        "prompts/list": () => ({ prompts: "nope" }),
      }),
    );
    expect(lists.resource).toMatchObject({ status: "failed", items: [], failure: { code: "CATALOG_CURSOR_LOOP" } });
    expect(lists.template).toMatchObject({ status: "failed", failure: { code: "CATALOG_MALFORMED_RESPONSE" } });
    expect(lists.template?.failure?.message).toContain("uriTemplate");
    expect(lists.prompt).toMatchObject({ status: "failed", failure: { code: "CATALOG_MALFORMED_RESPONSE" } });
  });

  it("keeps text the database could not store as replacement characters", async () => {
    const lists = byKind(
      await run({ "prompts/list": () => ({ prompts: [{ name: "p\u0000q", description: "\ud800" }] }) }),
    );
    expect(lists.prompt?.items[0]).toMatchObject({ name: "p\uFFFDq", description: "\uFFFD" });
    expect(lists.prompt?.items[0]?.definition).toContain("\\u0000");
  });
});
