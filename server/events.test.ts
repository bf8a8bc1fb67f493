import { describe, expect, it } from "vitest";
import { routed } from "./domain/agent-tools/route-cache";
import { announce, onChange } from "./events";

describe("change events", () => {
  it("reach every listener at once, and a name registered again replaces its listener", () => {
    const heard: string[] = [];
    const stopA = onChange("test-a", (change) => heard.push(`a:${change}`));
    onChange("test-b", (change) => heard.push(`b-old:${change}`));
    const stopB = onChange("test-b", (change) => heard.push(`b:${change}`));
    announce("catalog");
    stopA();
    announce("source");
    stopB();
    announce("identity");
    expect(heard.filter((h) => !h.startsWith("b-old"))).toEqual(["a:catalog", "b:catalog", "b:source"]);
    expect(heard.some((h) => h.startsWith("b-old"))).toBe(false);
  });

  it("drop the call-route cache: a route is looked up afresh after any announced change", async () => {
    let loads = 0;
    const load = async () => ++loads;
    expect(await routed("events-test", load)).toBe(1);
    expect(await routed("events-test", load)).toBe(1);
    announce("assignment");
    expect(await routed("events-test", load)).toBe(2);
  });
});
