import { describe, expect, it } from "vitest";
import { ROLES, roleAllows } from "./roles";

describe("roles", () => {
  it("admin may do everything; everyone may read; others only their own area", () => {
    const matrix = Object.fromEntries(ROLES.map((r) => [r, ROLES.filter((needed) => roleAllows(r, needed))]));
    expect(matrix).toEqual({
      admin: ["admin", "operator", "approver", "curator", "viewer"],
      operator: ["operator", "viewer"],
      approver: ["approver", "viewer"],
      curator: ["curator", "viewer"],
      viewer: ["viewer"],
    });
  });
});
