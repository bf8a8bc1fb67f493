/**
 * The built-in /mcp tools as the tool-selection eval reads them: exactly what tools/list
 * sends a model (name, title, description, input JSON Schema), from the one registry.
 */
import type { ToolText } from "@/server/domain/tool-selection/tool-text";
import { listedTool } from "@/server/mcp/tools/define";
import { builtInTools } from "@/server/mcp/tools/registry";

export function builtInToolTexts(): ToolText[] {
  return builtInTools.map((tool) => {
    const { name, title, description, inputSchema } = listedTool(tool);
    return { name, title, description, inputSchema };
  });
}
