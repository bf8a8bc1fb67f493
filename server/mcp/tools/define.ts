/**
 * One built-in /mcp tool, defined once: its name, title, description, zod input and output
 * schemas, annotations, the error codes it may answer with, and a handler that calls the
 * domain. Listing, dispatch, the reserved names and docs/mcp.md all read the same object
 * (registry.ts). Nothing here imports the MCP SDK: a handler returns a plain
 * CallToolResult-shaped object, and server.ts wires the list into whichever SDK serves /mcp.
 */
import { z } from "zod";
import type { Actor } from "../../actor";
import type { ClientOf } from "../../domain/agent-tools/mcp-client";
import { answered, type Dispatched, failedCall } from "../../domain/agent-tools/result";
import { DomainError, type ErrorCode, isDomainError } from "../../errors";
import { portableSchema } from "./portable-schema";

export type AgentActor = Extract<Actor, { kind: "agent" }>;

export interface ToolContext {
  actor: AgentActor;
  signal?: AbortSignal;
  /** The MCP client that made the call, found when asked (the link evidence records it). */
  client?: ClientOf;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The output schema's shape, where a Date may stand for a string (it travels as ISO 8601). */
export type Wire<T> = T extends string
  ? string | Date
  : T extends readonly (infer U)[]
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

/** What a handler hands back: structured content (the output schema's shape) and its text mirror. */
export interface ToolOutput<O> {
  structured: O;
  text: string;
  /** Blocks after the text mirror (search's resource_link per hit). */
  extra?: Record<string, unknown>[];
}

export interface BuiltInTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  inputSchema: I;
  /** None when the result is another Tool's (call_tool): it has no shape of its own to declare. */
  outputSchema?: O;
  annotations: ToolAnnotations;
  /** Codes an isError result of this tool may carry (besides INVALID_ARGUMENTS); docs list them. */
  errors: readonly (ErrorCode | "INVALID_ARGUMENTS")[];
  /** Answers the call; or, for a tool that stands for another Tool's call (call_tool), `forward` does. */
  handler?(input: z.output<I>, context: ToolContext): Promise<ToolOutput<Wire<z.input<O>>>>;
  /** The call this one stands for: dispatched exactly as if the agent had made it directly. */
  forward?(input: z.output<I>): { name: string; arguments?: Record<string, unknown> } | Dispatched;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodType>(tool: BuiltInTool<I, O>): BuiltInTool {
  return tool as unknown as BuiltInTool;
}

/**
 * JSON Schema of a zod schema as MCP carries it: 2020-12 (MCP's default dialect) without
 * a `$schema` member, since clients on draft-07 validators refuse an unknown meta-schema,
 * and in forms every model API's converter takes (portable-schema.ts).
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: "draft-2020-12" }) as Record<
    string,
    unknown
  >;
  return portableSchema(rest);
}

/** `structuredContent.error` of an isError result, as every Tool's failure carries it. */
const TOOL_ERROR_SCHEMA = {
  type: "object",
  properties: { code: { type: "string" }, message: { type: "string" } },
  required: ["code", "message"],
};

/**
 * The output schema as tools/list sends it: the success shape, or `{ error }`. Clients on
 * the 1.x TypeScript SDK check structuredContent against it even on an isError result, so
 * a failure's structured error must fit it too.
 */
function listedOutputSchema(output: z.ZodType): Record<string, unknown> {
  const { required, properties, ...success } = jsonSchemaOf(output, "output") as {
    required?: string[];
    properties?: Record<string, unknown>;
  };
  return {
    ...success,
    properties: { ...properties, error: TOOL_ERROR_SCHEMA },
    anyOf: [{ required: required ?? [] }, { required: ["error"] }],
  };
}

/**
 * Built-in definitions never change while the process runs, and converting their zod schemas
 * cost more than the rest of a tools/list: converted once, and each listing gets its own copy.
 */
const listed = new WeakMap<BuiltInTool, ReturnType<typeof toListed>>();

/** The tool as tools/list sends it. */
export function listedTool(tool: BuiltInTool): ReturnType<typeof toListed> {
  let known = listed.get(tool);
  if (!known) {
    known = toListed(tool);
    listed.set(tool, known);
  }
  return structuredClone(known);
}

function toListed(tool: BuiltInTool) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchemaOf(tool.inputSchema, "input"),
    // Clients refuse a result without structuredContent when a Tool declares an output schema.
    ...(tool.outputSchema ? { outputSchema: listedOutputSchema(tool.outputSchema) } : {}),
    annotations: { title: tool.title, ...tool.annotations },
  };
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** One problem in the words a model can act on: "body is required", not zod's "received undefined". */
function describeIssue(issue: z.core.$ZodIssue): string {
  const at = issue.path.length ? issue.path.join(".") : "";
  if (issue.code === "invalid_type") {
    const received = /received (\w+)/.exec(issue.message)?.[1];
    if (received === "undefined") return `${at || "arguments"} is required`;
    return `${at || "arguments"} must be ${article(issue.expected)}${received ? `, not ${article(received)}` : ""}`;
  }
  if (issue.code === "unrecognized_keys") {
    const names = issue.keys.map((k) => (at ? `${at}.${k}` : k));
    return `${names.join(", ")} ${names.length === 1 ? "is not an argument" : "are not arguments"} of this tool`;
  }
  return `${at || "arguments"}: ${issue.message}`;
}

/** The first problems with the arguments, each naming the argument and the rule it broke. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.slice(0, 5).map(describeIssue).join("; ");
}

/** What the model does about arguments a schema refused (docs/mcp.md, "Errors"). */
export const FIX_ARGUMENTS = "Correct the arguments and call again; tools/list carries the tool's input schema.";

const REQUEST_REFUSALS: ReadonlySet<string> = new Set(["IDENTITY_OVER_BUDGET", "UNAUTHENTICATED", "FORBIDDEN"]);

// Dates travel as ISO strings; structured content is plain JSON.
const plain = (value: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(value));

/**
 * Runs a built-in: arguments that break its input schema, and domain refusals (no grant,
 * PROPOSAL_STALE, MEMORY_TOO_LARGE…), come back as isError results the model can act on;
 * only unexpected failures escape (the transport logs them and answers generically).
 * An error result has the same shape as a catalog Tool's failure (failedCall).
 */
export async function runTool(tool: BuiltInTool, args: unknown, context: ToolContext): Promise<Dispatched> {
  const parsed = tool.inputSchema.safeParse(args ?? {});
  if (!parsed.success)
    return failedCall("INVALID_ARGUMENTS", `${describeIssues(parsed.error.issues)}. ${FIX_ARGUMENTS}`);
  if (!tool.handler) throw new Error(`${tool.name} forwards its calls (forwardedCall) and has no handler`);
  try {
    const output = await tool.handler(parsed.data, context);
    return answered({
      content: [{ type: "text", text: output.text }, ...(output.extra ?? [])],
      structuredContent: plain(output.structured),
    });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const e = error as DomainError;
    // Refusals of the whole request (an identity Over budget, a token gone) stay protocol errors.
    if (REQUEST_REFUSALS.has(e.code)) throw error;
    // Domain input errors are argument errors to the model: same code as the schema's own.
    return failedCall(e.code === "INVALID_INPUT" ? "INVALID_ARGUMENTS" : e.code, e.message, e.details);
  }
}

/**
 * The call an agent's call stands for: itself, or, for a forwarding tool (call_tool), the
 * Tool it names with that Tool's arguments, or the refusal of its own arguments.
 */
export function forwardedCall(
  tool: BuiltInTool | undefined,
  call: { name: string; arguments?: Record<string, unknown> },
): { name: string; arguments?: Record<string, unknown> } | Dispatched {
  if (!tool?.forward) return call;
  const parsed = tool.inputSchema.safeParse(call.arguments ?? {});
  if (!parsed.success)
    return failedCall("INVALID_ARGUMENTS", `${describeIssues(parsed.error.issues)}. ${FIX_ARGUMENTS}`);
  return tool.forward(parsed.data);
}

export { DomainError };
