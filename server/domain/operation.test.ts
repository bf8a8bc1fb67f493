import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Actor } from "../actor";
import { appRouter } from "../trpc/root";
import { createApiKey } from "./api-keys/api-keys";
import { createIdentity } from "./identities/identities";
import { operation } from "./operation";

const viewer: Actor = { kind: "api_key", id: "k", name: "viewer key", role: "viewer" };
const admin: Actor = { kind: "api_key", id: "k", name: "admin key", role: "admin" };

describe("one declaration per operation", () => {
  const seen: unknown[] = [];
  const op = operation({ role: "operator", input: z.object({ n: z.number().int() }) }, async (_actor, input) => {
    seen.push(input);
    return input.n * 2;
  });

  it("called directly, it checks the role and parses the input itself, naming the field", async () => {
    await expect(op(viewer, { n: 2 })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(op(admin, { n: 1.5 })).rejects.toMatchObject({ code: "INVALID_INPUT", details: { field: "n" } });
    await expect(op(admin, { n: "\u0000" } as never)).rejects.toMatchObject({ code: "INVALID_INPUT" });
    expect(seen).toEqual([]);
    expect(await op(admin, { n: 2 })).toBe(4);
  });

  it("a transport that checked both calls the body, which does neither again", async () => {
    expect(await op.run(viewer, { n: 3 })).toBe(6);
  });

  it("tRPC procedures take their role from the operation: declared once", () => {
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: { role: unknown } } }>;
    expect(procedures["apiKeys.create"]?._def.meta?.role).toBe(createApiKey.role);
    expect(procedures["identities.create"]?._def.meta?.role).toBe(createIdentity.role);
    expect(createIdentity.role).toBe("operator");
  });
});
