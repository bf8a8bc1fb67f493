/**
 * The handler's argument type comes from the zod input schema, and its return type from the
 * output schema: checked by the compiler (npm run typecheck), asserted here with expectTypeOf.
 */
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { createToolHost, type ToolCallContext } from "./index.ts";

const host = createToolHost({ url: "http://127.0.0.1:1", token: "qm_host_types", logger: false });

describe("host.tool() types", () => {
  it("infers the handler's arguments from the input schema, after defaults and transforms", () => {
    host.tool({
      name: "get_invoice",
      description: "Read one invoice.",
      input: z.object({
        invoiceId: z.string(),
        lines: z.number().int().optional(),
        currency: z.enum(["EUR", "USD"]).default("EUR"),
        cents: z.string().transform((s) => Number(s)),
      }),
      handler: (args, context) => {
        expectTypeOf(args).toEqualTypeOf<{
          invoiceId: string;
          lines?: number | undefined;
          currency: "EUR" | "USD";
          cents: number;
        }>();
        expectTypeOf(context).toEqualTypeOf<ToolCallContext>();
        // @ts-expect-error: not in the schema
        args.customerId;
        return `Invoice ${args.invoiceId}`;
      },
    });
  });

  it("checks the handler's result against the output schema's input type", () => {
    host.tool({
      name: "totals",
      description: "Totals.",
      input: z.object({ customerId: z.string() }),
      output: z.object({ total: z.number(), currency: z.string() }),
      handler: async () => ({ total: 1, currency: "EUR" }),
    });
    host.tool({
      name: "totals_wrong",
      description: "Totals.",
      input: z.object({ customerId: z.string() }),
      output: z.object({ total: z.number() }),
      // @ts-expect-error: total must be a number
      handler: () => ({ total: "1" }),
    });
  });

  it("takes any JSON-able result without an output schema, and no function or symbol", () => {
    host.tool({ name: "a", description: "", input: z.object({}), handler: () => ({ ok: true, n: [1, 2] }) });
    host.tool({ name: "b", description: "", input: z.array(z.string()), handler: (rows) => rows.length });
    expectTypeOf<Parameters<Parameters<typeof host.tool<z.ZodArray<z.ZodString>>>[0]["handler"]>[0]>().toEqualTypeOf<
      string[]
    >();
    // Side effects only: the model reads an empty output.
    host.tool({ name: "d", description: "", input: z.object({}), handler: async () => {} });
    // @ts-expect-error: a function is not a result
    host.tool({ name: "c", description: "", input: z.object({}), handler: () => () => 1 });
  });
});
