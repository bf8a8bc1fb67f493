import { z } from "zod";
import { failedCall } from "../../domain/agent-tools/result";
import { defineTool } from "./define";

/**
 * call_tool: for clients that pass the model only the Tools they listed. It stands for a
 * direct tools/call of the Tool it names (server.ts forwards it before dispatch), so the
 * call is checked, rate-limited, logged and traced under that Tool's own name, and a Tool
 * the identity does not hold is refused with the same reason.
 */
export const callTool = defineTool({
  name: "call_tool",
  title: "Run by name",
  description:
    "Call (run, invoke) one you hold by its exact name, passing its arguments, even one that is not in the list you were given; it runs as a direct call would.",
  inputSchema: z.object({
    name: z.string().min(1, "name the Tool to run").describe("The exact name."),
    arguments: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("The arguments its input schema asks for; {} if none."),
  }),
  // Whatever the called Tool may change: a catalog Tool's effects are not known here.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  // And every failure a direct call of the named Tool may answer with (docs/mcp.md, "Errors").
  errors: ["INVALID_ARGUMENTS", "NOT_FOUND"],
  forward({ name, arguments: args }) {
    if (name === "call_tool")
      return failedCall(
        "INVALID_ARGUMENTS",
        "name: call_tool runs another Tool, not itself; give that Tool's name and its arguments.",
      );
    return { name, arguments: args ?? {} };
  },
});
