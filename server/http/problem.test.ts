import { describe, expect, it } from "vitest";
import { DomainError } from "../errors";
import { problem, problemBody, problemOf } from "./problem";

describe("a plain HTTP problem", () => {
  it("answers a domain refusal with its code's status, and its details", async () => {
    const response = problemOf(new DomainError("NOT_FOUND", "gone", { field: "id" }));
    expect(response?.status).toBe(404);
    expect(await response?.json()).toEqual({ code: "NOT_FOUND", message: "gone", details: { field: "id" } });
  });

  it("answers a catalog check's refusal of a registration with a 4xx", () => {
    expect(problemOf(new DomainError("REQUEST_BODY_TOO_LARGE", "big"))?.status).toBe(413);
    expect(problemOf(new DomainError("SOURCE_PAUSED", "paused"))?.status).toBe(409);
    expect(problemOf(new DomainError("CATALOG_MALFORMED_RESPONSE", "not JSON"))?.status).toBe(400);
    expect(problemOf(new DomainError("TOO_MANY_TOOLS", "many"))?.status).toBe(422);
  });

  it("takes its status from the one code table, for codes no DomainError carried", async () => {
    const throttled = problem("SIGN_IN_THROTTLED", "later", undefined, { "retry-after": "8" });
    expect([throttled.status, throttled.headers.get("retry-after")]).toEqual([429, "8"]);
    expect(await throttled.json()).toEqual({ code: "SIGN_IN_THROTTLED", message: "later" });
    expect(problem("ALREADY_ANSWERED", "done").status).toBe(409);
    expect(problem("METHOD_NOT_ALLOWED", "no").status).toBe(405);
    // @ts-expect-error: a code outside the table cannot be answered.
    expect(() => problem("BAD_REQUEST", "?")).toThrow();
  });

  it("leaves a crash to its caller, and omits empty details", () => {
    expect(problemOf(new Error("boom"))).toBeNull();
    expect(problemBody("INTERNAL", "failed", {})).toEqual({ code: "INTERNAL", message: "failed" });
  });
});
