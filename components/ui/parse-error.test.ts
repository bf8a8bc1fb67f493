import { describe, expect, it } from "vitest";
import { parseError } from "./parse-error";

describe("parseError", () => {
  it("reads the message, code, top-level field and status of a tRPC error", () => {
    const error = {
      message: "headers.X-Key: too long",
      data: { domainCode: "INVALID_INPUT", httpStatus: 400, details: { field: "headers.X-Key" } },
    };
    expect(parseError(error)).toEqual({
      message: "headers.X-Key: too long",
      code: "INVALID_INPUT",
      field: "headers",
      status: 400,
      details: { field: "headers.X-Key" },
    });
  });

  it("is null without an error, and says something for an error of another shape", () => {
    expect(parseError(null)).toBeNull();
    expect(parseError(new TypeError("Failed to fetch"))).toMatchObject({ message: "Failed to fetch", code: null });
    expect(parseError({})).toMatchObject({ message: "Something went wrong.", field: null, status: null });
  });
});
