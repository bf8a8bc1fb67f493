import { z } from "zod";
import { findOfferedTools, ZFindToolsInput } from "../../domain/agent-tools/find";
import { LIMITS } from "../../limits";
import { READ_ONLY } from "./common";
import { defineTool } from "./define";

export const findTools = defineTool({
  name: "find_tools",
  title: "Find Tools",
  description:
    "Search your Tools: finds which of the Tools (functions, integrations) available to you does a job, listed or not, and returns the best matches with their input schemas.",
  inputSchema: z.object({
    query: ZFindToolsInput.shape.query.describe(
      "What you need done, in your words or the user's, e.g. 'create invoice'.",
    ),
    limit: ZFindToolsInput.shape.limit.describe(
      `Most matches to return (1–${LIMITS.FIND_TOOLS_RESULTS.value}); 10 if omitted.`,
    ),
  }),
  outputSchema: z.object({
    query: z.string(),
    total: z.number().int().describe("How many Tools match in all."),
    tools: z.array(
      z.object({
        name: z.string().describe("The exact name to call it by."),
        description: z.string(),
        source: z.string(),
        inputSchema: z.record(z.string(), z.unknown()).describe("The Tool's input JSON Schema."),
        callPolicy: z
          .object({ policy: z.enum(["none", "confirm", "approve"]), reason: z.string() })
          .optional()
          .describe(
            "Present when a person must agree before a call runs: confirm (your user, in the client) or approve (an approver, in the console).",
          ),
      }),
    ),
  }),
  annotations: READ_ONLY,
  errors: ["INVALID_ARGUMENTS"],
  async handler(input, { actor }) {
    const found = await findOfferedTools(actor, input);
    // Clients that pass the model only text still give it what a call needs.
    const lines = found.tools.map(
      (t) =>
        `- ${t.name} (${t.source}): ${t.description.slice(0, 200)}\n  input: ${JSON.stringify(t.inputSchema)}${t.callPolicy ? `\n  call policy: ${t.callPolicy.policy} — ${t.callPolicy.reason}` : ""}`,
    );
    // A whole user request as the query is not repeated back in full.
    const asked = found.query.length > 80 ? `${found.query.slice(0, 80)}…` : found.query;
    const text = found.tools.length
      ? `${found.total} Tools match "${asked}"${found.total > found.tools.length ? `; the best ${found.tools.length}` : ""}:\n${lines.join("\n")}`
      : `No Tool of this agent matches "${asked}".`;
    return { structured: found, text };
  },
});
