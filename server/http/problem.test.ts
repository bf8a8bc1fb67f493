import { describe, expect, it } from "vitest";
import { DomainError } from "../errors";
import { problemBody, problemOf } from "./problem";

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

  it("leaves a crash to its caller, and omits empty details", () => {
    expect(problemOf(new Error("boom"))).toBeNull();
    expect(problemBody("INTERNAL", "failed", {})).toEqual({ code: "INTERNAL", message: "failed" });
  });
});
