/**
 * @quartermaster/tool-host/testing — a host's Tools called in-process the way an agent's
 * call through Quartermaster's /mcp reaches them, with no Quartermaster running: the
 * registration checked as serve() checks it (limits, codes), only the Tools a model would be
 * offered listed and callable, arguments sent as JSON (a Date arrives as a string, undefined
 * is dropped), validated and defaulted by the Tool's input schema, the handler run with a
 * call context, its value checked against the output schema and the result limits, and the
 * MCP Tool Result shaped by the same contract code Quartermaster uses (text, and
 * structuredContent for a JSON object). Nothing is sent anywhere. See decision 0078.
 */
import { randomUUID } from "node:crypto";
import { evaluateSchemaCompatibility } from "./contract/compatibility.ts";
import { failedToolResult, type ShapedToolResult, shapeToolResult } from "./contract/result-checks.ts";
import type { DefinedTool, ToolCallContext, ToolDefinition } from "./define-tool.ts";
import { ToolHostError } from "./errors.ts";
import type { ToolHost } from "./host.ts";

export type { ShapedToolResult as TestToolResult } from "./contract/result-checks.ts";

export interface TestCallOptions {
  /** Aborts the handler's ctx.signal, as an agent that gives up would. */
  signal?: AbortSignal;
  /** The call's deadline from now (default: the Tool's timeoutSeconds, else Quartermaster's default, 50 s). */
  deadlineMs?: number;
  /** Hears each ctx.progress() report, as an agent that sent a progressToken would (unthrottled here). */
  onProgress?: (report: { progress: number; total?: number; message?: string }) => void;
}

export interface ToolHostHarness {
  /** The Tools an agent is offered (tools/list), as this host registers them. */
  listTools(): ToolDefinition[];
  /** Every defined Tool with its model-compatibility state and the reason it is not offered. */
  verdicts(): { tool: string; state: string; reason: string | null }[];
  /** Calls a Tool as /mcp would and resolves with the Tool Result the agent gets. */
  call(name: string, args?: Record<string, unknown>, options?: TestCallOptions): Promise<ShapedToolResult>;
  /** What the host would have logged for each failed call (a handler that threw, an output over a limit). */
  readonly problems: { tool: string; problem: string }[];
}

/**
 * The harness for a host whose Tools are defined (serve() need not be, and is not, called).
 * Throws what serve() would reject with when the list breaks a registration limit.
 */
export function testToolHost(host: ToolHost): ToolHostHarness {
  // biome-ignore lint/complexity/useLiteralKeys: the host's own definitions, read without a public accessor
  host["buildRegistration"]();
  // biome-ignore lint/complexity/useLiteralKeys: as above
  const tools: ReadonlyMap<string, DefinedTool> = host["tools"];
  const verdict = (tool: DefinedTool) => evaluateSchemaCompatibility(tool.definition.inputSchema);
  const problems: { tool: string; problem: string }[] = [];
  return {
    problems,
    listTools: () => [...tools.values()].filter((t) => verdict(t).state === "compatible").map((t) => t.definition),
    verdicts: () => [...tools.values()].map((t) => ({ tool: t.name, ...verdict(t) })),
    async call(name, args = {}, options = {}) {
      const tool = tools.get(name);
      if (!tool)
        throw new ToolHostError("TOOL_NOT_OFFERED", `This host defines no Tool named "${name}".`, { tool: name });
      const judged = verdict(tool);
      if (judged.state !== "compatible")
        throw new ToolHostError(
          "TOOL_NOT_OFFERED",
          `Tool "${name}" is offered to no model (${judged.state}): ${judged.reason}`,
          { tool: name, state: judged.state },
        );
      const deadline = new Date(Date.now() + (options.deadlineMs ?? tool.timeoutSeconds * 1000));
      const timeout = AbortSignal.timeout(Math.max(0, deadline.getTime() - Date.now()));
      const context: ToolCallContext = {
        callId: randomUUID(),
        tool: name,
        deadline,
        signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
        progress: (progress, total, message) =>
          options.onProgress?.({
            progress,
            ...(total !== undefined ? { total } : {}),
            ...(message !== undefined ? { message } : {}),
          }),
      };
      // Arguments reach a host as JSON, whatever the agent's client held.
      const sent = JSON.parse(JSON.stringify(args ?? {})) as Record<string, unknown>;
      const { result, problem } = await tool.run(sent, context);
      if (problem) problems.push({ tool: name, problem });
      const shaped = shapeToolResult(result);
      return shaped.ok
        ? shaped.value
        : failedToolResult(shaped.failure.code, shaped.failure.message, shaped.failure.details);
    },
  };
}
