import { z } from "zod";
import { findOfferedTools, ZFindToolsInput } from "../../domain/agent-tools/find";
import { READ_ONLY } from "./common";
import { defineTool } from "./define";

export const findTools = defineTool({
  name: "find_tools",
  title: "Find Tools",
  description:
    "Find one of your Tools (functions, integrations) that is not in the list you see: searches the Tools available to you by name and by what they do, and returns the best matches with the exact names to call.",
  inputSchema: z.object({
    query: ZFindToolsInput.shape.query.describe(
      "Words the Tool's name or description contains, e.g. 'create invoice'.",
    ),
    limit: ZFindToolsInput.shape.limit.describe("Most matches to return (1–50); 10 if omitted."),
  }),
  outputSchema: z.object({
    query: z.string(),
    total: z.number().int().describe("How many Tools match in all."),
    tools: z.array(z.object({ name: z.string(), description: z.string(), source: z.string() })),
  }),
  annotations: READ_ONLY,
  errors: ["INVALID_ARGUMENTS"],
  async handler(input, { actor }) {
    const found = await findOfferedTools(actor, input);
    const lines = found.tools.map((t) => `- ${t.name} (${t.source}): ${t.description.slice(0, 200)}`);
    const text = found.tools.length
      ? `${found.total} Tools match "${found.query}"${found.total > found.tools.length ? `; the best ${found.tools.length}` : ""}:\n${lines.join("\n")}`
      : `No Tool of this agent matches "${found.query}".`;
    return { structured: found, text };
  },
});
