import { describe, expect, it } from "vitest";
import { z } from "zod";
import { TOOL_HOST_LIMITS } from "./contract/limits.ts";
import { errorText } from "./define-tool.ts";
import { RegistrationError, ToolDefinitionError } from "./errors.ts";
import { createToolHost } from "./index.ts";

const newHost = () => createToolHost({ url: "http://127.0.0.1:1", token: "qm_host_unit", logger: false });

describe("host.tool()", () => {
  it("refuses a schema JSON cannot carry, naming the Tool and what to use instead", () => {
    expect(() =>
      newHost().tool({ name: "when", description: "", input: z.object({ at: z.date() }), handler: () => "" }),
    ).toThrow(expect.objectContaining({ name: "ToolDefinitionError", code: "TOOL_SCHEMA_UNREPRESENTABLE" }));
    try {
      newHost().tool({ name: "when", description: "", input: z.object({ at: z.date() }), handler: () => "" });
    } catch (error) {
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toContain('Tool "when"');
      expect((error as Error).message).toContain("z.iso.datetime()");
    }
  });

  it("refuses each per-Tool limit with the code the server uses, before anything is sent", () => {
    const long = "d".repeat(TOOL_HOST_LIMITS.TOOL_DESCRIPTION_CHARS.value + 1);
    const attempt = (define: () => unknown) => {
      try {
        define();
      } catch (error) {
        return error as RegistrationError;
      }
      throw new Error("not refused");
    };
    const described = attempt(() =>
      newHost().tool({ name: "wordy", description: long, input: z.object({}), handler: () => "" }),
    );
    expect(described).toBeInstanceOf(RegistrationError);
    expect(described).toMatchObject({ code: "TOOL_DESCRIPTION_TOO_LONG", status: 422, local: true, tool: "wordy" });
    expect(described.limit).toBe(4096);

    const named = attempt(() =>
      newHost().tool({ name: "n".repeat(129), description: "", input: z.object({}), handler: () => "" }),
    );
    expect(named).toMatchObject({ code: "TOOL_NAME_INVALID", measured: 129, limit: 128 });

    let deep: z.ZodType = z.string();
    for (let i = 0; i < 40; i++) deep = z.object({ a: deep });
    expect(
      attempt(() => newHost().tool({ name: "deep", description: "", input: deep, handler: () => "" })),
    ).toMatchObject({ code: "TOOL_SCHEMA_TOO_DEEP", limit: 64 });

    const host = newHost().tool({ name: "twice", description: "", input: z.object({}), handler: () => "" });
    expect(
      attempt(() => host.tool({ name: "twice", description: "", input: z.object({}), handler: () => "" })),
    ).toMatchObject({ code: "CATALOG_DUPLICATE_TOOL_NAME", tool: "twice" });
  });

  it("refuses a definition that is not one, with the field to fix", () => {
    expect(() =>
      newHost().tool({
        name: "raw",
        description: "",
        input: { type: "object" } as unknown as z.ZodObject,
        handler: () => "",
      }),
    ).toThrow(/input must be a zod schema/);
  });

  it("takes no Tool after serve() was called", async () => {
    const host = newHost().tool({ name: "one", description: "", input: z.object({}), handler: () => "" });
    const serving = host.serve().catch(() => {});
    expect(() => host.tool({ name: "two", description: "", input: z.object({}), handler: () => "" })).toThrow(
      expect.objectContaining({ code: "TOOLS_FIXED_AFTER_SERVE" }),
    );
    await host.close();
    await serving;
  });
});

describe("error text sent for a failed call", () => {
  it("has no NUL character (Quartermaster would refuse it) and stays short, on whole characters", () => {
    expect(errorText("bad\u0000byte")).toBe("bad\uFFFDbyte");
    const long = errorText("😀".repeat(5000));
    expect(long.startsWith("😀".repeat(4096))).toBe(true);
    expect(long).toContain("truncated");
    expect(long).not.toContain("\uD83D…");
  });
});
