import { describe, expect, it } from "vitest";
import { answersIn, sessionAsksByForm, sessionIdFor } from "./in-band";

const initialize = (capabilities: unknown) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { capabilities },
});
const carrying = (sessionId: string | null) =>
  new Request("http://qm.test/mcp", { method: "POST", headers: sessionId ? { "mcp-session-id": sessionId } : {} });

describe("the sealed session id of a 2025-era client that can be asked", () => {
  it("is given only to a client that declared form elicitation on a revision that has it", () => {
    expect(sessionIdFor("id-a", "2025-11-25", initialize({ elicitation: {} }))).toMatch(/^qms1\./);
    expect(sessionIdFor("id-a", "2025-11-25", initialize({ elicitation: { form: {} } }))).toMatch(/^qms1\./);
    expect(sessionIdFor("id-a", "2025-06-18", initialize({ elicitation: {} }))).toMatch(/^qms1\./);
    // URL mode only, no elicitation, or a revision before elicitation: nothing to remember.
    expect(sessionIdFor("id-a", "2025-11-25", initialize({ elicitation: { url: {} } }))).toBeNull();
    expect(sessionIdFor("id-a", "2025-11-25", initialize({}))).toBeNull();
    expect(sessionIdFor("id-a", "2025-03-26", initialize({ elicitation: {} }))).toBeNull();
  });

  it("says so only for the identity it was sealed for, and only untouched", () => {
    const id = sessionIdFor("id-a", "2025-11-25", initialize({ elicitation: {} })) as string;
    expect(sessionAsksByForm(carrying(id), "id-a")).toBe(true);
    expect(sessionAsksByForm(carrying(id), "id-b")).toBe(false);
    const [prefix, , mac] = id.split(".");
    const rewritten = Buffer.from(JSON.stringify({ f: 1, x: 1 })).toString("base64url");
    expect(sessionAsksByForm(carrying([prefix, rewritten, mac].join(".")), "id-a")).toBe(false);
    expect(sessionAsksByForm(carrying(`${id.slice(0, -2)}AA`), "id-a")).toBe(false);
    expect(sessionAsksByForm(carrying("some-other-servers-session"), "id-a")).toBe(false);
    expect(sessionAsksByForm(carrying(null), "id-a")).toBe(false);
  });
});

describe("a POST of answers", () => {
  it("is taken apart only when every message in it answers one of our questions", () => {
    const ours = { jsonrpc: "2.0", id: "qmq_abc", result: { action: "decline" } };
    expect(answersIn(ours)).toEqual([ours]);
    expect(answersIn([ours, { ...ours, id: "qmq_def", error: { code: -1, message: "no" } }])).toHaveLength(2);
    // Anything else goes the usual way: a request, a response to another id, a mix.
    expect(answersIn({ jsonrpc: "2.0", id: "qmq_abc", method: "tools/call", params: {} })).toBeNull();
    expect(answersIn({ jsonrpc: "2.0", id: 3, result: {} })).toBeNull();
    expect(answersIn([ours, { jsonrpc: "2.0", id: 4, method: "ping" }])).toBeNull();
    expect(answersIn(null)).toBeNull();
  });
});
