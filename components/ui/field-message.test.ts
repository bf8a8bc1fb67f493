import { describe, expect, it } from "vitest";
import { withoutFieldPrefix } from "./field-message";

describe("an error shown under its field", () => {
  it("drops the field name the server put in front, and reads as a sentence", () => {
    expect(withoutFieldPrefix('name: a Source named "Orders" already exists.')).toBe(
      'A Source named "Orders" already exists.',
    );
    expect(withoutFieldPrefix("headers.X-Key: must not be empty")).toBe("Must not be empty");
  });

  it("leaves a message without a field prefix as it is, a time with colons too", () => {
    expect(withoutFieldPrefix("Give the Connection a name.")).toBe("Give the Connection a name.");
    expect(withoutFieldPrefix("Retry after 12:30: the host is busy")).toBe("Retry after 12:30: the host is busy");
    expect(withoutFieldPrefix("url:")).toBe("url:");
  });
});
