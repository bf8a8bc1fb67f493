import { describe, expect, it } from "vitest";
import { z } from "zod";
import { TOOL_HOST_LIMITS } from "./contract/limits.ts";
import { createToolHost, image, RegistrationError, ToolDefinitionError, toolResult } from "./index.ts";
import { testToolHost } from "./testing.ts";

const newHost = (strict?: boolean) =>
  createToolHost({ url: "http://127.0.0.1:1", token: "qm_host_unit", logger: false, strict });

describe("testToolHost(): a host's Tools called as /mcp calls them, with no Quartermaster", () => {
  it("sends the arguments as JSON, applies the schema's defaults and shapes text and structured results", async () => {
    const seen: unknown[] = [];
    const host = newHost()
      .tool({
        name: "search_tickets",
        description: "Search tickets.",
        input: z.object({
          status: z.enum(["open", "closed"]).default("open"),
          after: z.iso.date().optional(),
          limit: z.number().int().max(50).default(20),
        }),
        handler: (args, ctx) => {
          seen.push(args, typeof ctx.callId, ctx.deadline instanceof Date);
          return `${args.status} tickets after ${args.after ?? "ever"}, up to ${args.limit}`;
        },
      })
      .tool({
        name: "create_ticket",
        description: "Create a ticket.",
        input: z.object({ title: z.string() }),
        output: z.object({ id: z.string(), title: z.string() }),
        handler: ({ title }) => ({ id: "T-1", title }),
      });
    const qm = testToolHost(host);

    // undefined is dropped on the way, as it is in JSON: the default applies.
    const listed = await qm.call("search_tickets", { after: "2026-11-01", limit: undefined });
    expect(listed).toEqual({ content: [{ type: "text", text: "open tickets after 2026-11-01, up to 20" }] });
    expect(seen).toEqual([{ status: "open", after: "2026-11-01", limit: 20 }, "string", true]);

    const created = await qm.call("create_ticket", { title: "Printer on fire" });
    expect(created.isError).toBeUndefined();
    expect(created.structuredContent).toEqual({ id: "T-1", title: "Printer on fire" });
    expect(JSON.parse(created.content[0]?.text ?? "")).toEqual({ id: "T-1", title: "Printer on fire" });
    expect(qm.listTools().map((t) => [t.name, Boolean(t.outputSchema)])).toEqual([
      ["search_tickets", false],
      ["create_ticket", true],
    ]);
  });

  it("fails a call with arguments the schema refuses, a handler that throws or an output over the limit, each alone", async () => {
    let ran = 0;
    const host = newHost().tool({
      name: "export_rows",
      description: "Export rows.",
      input: z.object({ rows: z.number().int().min(1) }),
      handler: ({ rows }) => {
        ran++;
        if (rows === 13) throw new Error("The export service is down.");
        return "x".repeat(rows);
      },
    });
    const qm = testToolHost(host);

    const refused = await qm.call("export_rows", { rows: 0 });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toMatch(/rows/);
    expect(ran).toBe(0);

    expect(await qm.call("export_rows", { rows: 13 })).toEqual({
      content: [{ type: "text", text: "The export service is down." }],
      isError: true,
    });
    const tooLong = await qm.call("export_rows", { rows: TOOL_HOST_LIMITS.SDK_RESULT_OUTPUT_CHARS.value + 1 });
    expect(tooLong.isError).toBe(true);
    expect(tooLong.content[0]?.text).toMatch(/^TOOL_RESULT_TEXT_TOO_LONG: /);
    expect(qm.problems.map((p) => p.problem)).toEqual([
      "its handler threw: The export service is down.",
      expect.stringMatching(/^TOOL_RESULT_TEXT_TOO_LONG/),
    ]);
    expect((await qm.call("export_rows", { rows: 3 })).content[0]?.text).toBe("xxx");
  });

  it("lists no Tool a model would not be offered, and says why when a test calls one", async () => {
    const host = newHost()
      .tool({ name: "ok", description: "", input: z.object({}), handler: () => "ok" })
      .tool({ name: "hidden", description: "", input: z.object({ __trace: z.string() }), handler: () => "never" });
    const qm = testToolHost(host);
    expect(qm.listTools().map((t) => t.name)).toEqual(["ok"]);
    expect(qm.verdicts()).toEqual([
      { tool: "ok", state: "compatible", reason: null },
      { tool: "hidden", state: "schema_unsupported", reason: expect.stringContaining('"__"') },
    ]);
    await expect(qm.call("hidden", { __trace: "t" })).rejects.toMatchObject({
      code: "TOOL_NOT_OFFERED",
      message: expect.stringContaining("schema_unsupported"),
    });
    await expect(qm.call("nope")).rejects.toMatchObject({ code: "TOOL_NOT_OFFERED" });
  });

  it("passes the test's signal to the handler's ctx.signal", async () => {
    const host = newHost().tool({
      name: "slow",
      description: "",
      input: z.object({}),
      handler: (_args, ctx) =>
        new Promise<string>((resolve) => ctx.signal.addEventListener("abort", () => resolve("stopped"))),
    });
    const cancel = new AbortController();
    const pending = testToolHost(host).call("slow", {}, { signal: cancel.signal });
    setTimeout(() => cancel.abort(), 20);
    expect((await pending).content[0]?.text).toBe("stopped");
  });

  it("refuses a list over a registration limit as serve() would", () => {
    const host = newHost();
    for (let i = 0; i <= TOOL_HOST_LIMITS.TOOLS_PER_SOURCE.value; i++)
      host.tool({ name: `t${i}`, description: "", input: z.object({}), handler: () => "" });
    expect(() => testToolHost(host)).toThrow(RegistrationError);
    expect(() => testToolHost(host)).toThrow(expect.objectContaining({ code: "TOO_MANY_TOOLS", local: true }));
  });
});

describe("strict mode", () => {
  it("refuses, at host.tool(), a Tool with a reserved argument or a root that is not an object", () => {
    const reserved = { name: "refund", description: "", input: z.object({ __id: z.string() }), handler: () => "" };
    expect(() => newHost(true).tool(reserved)).toThrow(ToolDefinitionError);
    expect(() => newHost(true).tool(reserved)).toThrow(
      expect.objectContaining({
        code: "TOOL_NOT_OFFERABLE",
        details: { tool: "refund", state: "schema_unsupported" },
        message: expect.stringContaining('Rename "__id"'),
      }),
    );
    expect(() => newHost(true).tool({ name: "echo", description: "", input: z.string(), handler: () => "" })).toThrow(
      expect.objectContaining({ code: "TOOL_NOT_OFFERABLE", details: { tool: "echo", state: "input_not_object" } }),
    );
    // Not strict (the default): registered, and the server's verdict is logged as a warning.
    expect(() => newHost().tool(reserved)).not.toThrow();
  });
});

describe("testToolHost(): refused arguments", () => {
  it("come back as Quartermaster's INVALID_ARGUMENTS naming the field, for a refinement and an unknown argument alike", async () => {
    const ran: unknown[] = [];
    const host = newHost().tool({
      name: "search_tickets",
      description: "Search tickets.",
      input: z.strictObject({
        after: z.iso
          .date()
          .refine((d) => d < "2100-01-01", "must not be in the future")
          .optional(),
      }),
      handler: (args) => {
        ran.push(args);
        return "ok";
      },
    });
    const qm = testToolHost(host);
    const fix = "Correct the arguments and call again; tools/list (or find_tools) carries the Tool's input schema.";
    const message = `after: must not be in the future. ${fix}`;
    expect(await qm.call("search_tickets", { after: "2999-01-01" })).toEqual({
      content: [{ type: "text", text: `INVALID_ARGUMENTS: ${message}` }],
      structuredContent: { error: { code: "INVALID_ARGUMENTS", message } },
      isError: true,
    });
    const typo = await qm.call("search_tickets", { aftr: "2026-01-01" });
    expect(typo.content[0]?.text).toBe(`INVALID_ARGUMENTS: aftr: is not an argument of this Tool. ${fix}`);
    expect(ran).toEqual([]);
    expect(qm.problems).toEqual([]);
  });
});

describe("testToolHost(): content results", () => {
  it("shows a toolResult() as the agent gets it, and its structured value checked against the output schema", async () => {
    const host = newHost().tool({
      name: "chart",
      description: "Chart sales.",
      input: z.object({ ok: z.boolean().default(true) }),
      output: z.object({ total: z.number() }),
      handler: ({ ok }) =>
        toolResult([image(new Uint8Array([1, 2, 3]), "image/png")], ok ? { total: 3 } : ({ total: "3" } as never)),
    });
    const qm = testToolHost(host);
    expect(await qm.call("chart")).toEqual({
      content: [
        { type: "text", text: '{"total":3}' },
        { type: "image", data: "AQID", mimeType: "image/png" },
      ],
      structuredContent: { total: 3 },
    });
    const wrong = await qm.call("chart", { ok: false });
    expect([wrong.isError, wrong.content[0]?.text]).toEqual([
      true,
      "chart returned a result that does not match its output schema.",
    ]);
    expect(qm.problems.map((p) => p.problem)).toEqual([expect.stringMatching(/^its toolResult\(\) structured value/)]);
  });
});
