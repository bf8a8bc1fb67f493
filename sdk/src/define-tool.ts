/**
 * One Tool as a host defines it: zod schemas in, an MCP Tool definition out (converted
 * once with z.toJSONSchema), and a runner that validates a call's arguments, calls the
 * handler and turns whatever happens into the one result Quartermaster takes.
 */
import { z } from "zod";
import { isToolResultValue, type ToolResultValue } from "./content.ts";
import { describeZodIssues, invalidArgumentsMessage } from "./contract/argument-problems.ts";
import { reservedArgumentNames } from "./contract/compatibility.ts";
import { TOOL_HOST_LIMITS } from "./contract/limits.ts";
import {
  checkResultContent,
  checkResultOutput,
  type ResultContentBlock,
  type SubmittedResult,
} from "./contract/result-checks.ts";
import { checkRegisteredTool, checkToolTimeout } from "./contract/tool-checks.ts";
import { RegistrationError, ToolDefinitionError } from "./errors.ts";

/** MCP Tool annotations: hints clients show; models are not told them. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [hint: string]: unknown;
}

/** What a handler learns about the call besides its arguments. */
export interface ToolCallContext {
  /** Quartermaster's id of this call (for logs). */
  callId: string;
  /** The Tool's name as this host registered it. */
  tool: string;
  /**
   * A `Date`: when the Tool's deadline (its `timeoutSeconds`) passes. After it the agent has
   * been told TOOL_CALL_TIMEOUT and the result is no longer taken.
   */
  deadline: Date;
  /**
   * Aborted when the agent cancels the call or hangs up, at the deadline, or when close()
   * gives up waiting: stop work that nobody will read (pass it to fetch and database calls).
   * `signal.reason` is an Error saying which.
   */
  signal: AbortSignal;
  /**
   * Reports how far the call has come, for an agent that asked (its client sent a
   * progressToken): it gets notifications/progress. `progress` must increase with each
   * report; `total` (above 0) is optional, as is a short `message`. Call it as often as you
   * like: only the latest value is sent, at most every 250 ms. A no-op when the agent did not
   * ask, or Quartermaster predates progress.
   */
  progress(progress: number, total?: number, message?: string): void;
}

/** What a handler without an output schema may return: text as is, nothing as "", anything else as JSON. */
export type ToolOutput =
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing is a void function, and that is allowed
  void | string | number | boolean | null | undefined | readonly unknown[] | { readonly [key: string]: unknown };

export type HandlerResult<O extends z.ZodType | undefined> = O extends z.ZodType
  ? z.input<O> | ToolResultValue<z.input<O>>
  : ToolOutput | ToolResultValue<undefined>;

export interface ToolSpec<I extends z.ZodType, O extends z.ZodType | undefined = undefined> {
  /** The native name (1–128 characters, unique within the host); agents see a model-facing name. */
  name: string;
  title?: string;
  /** What the Tool does, for the model (at most 4,096 characters). */
  description: string;
  /** The arguments, as a zod schema; the handler receives them validated and typed. */
  input: I;
  /** The result's shape, if it has one: the handler's return value is checked against it and sent as JSON. */
  output?: O;
  annotations?: ToolAnnotations;
  /**
   * How long one call may take, in whole seconds, before the agent is told TOOL_CALL_TIMEOUT
   * (default 50, under the 60 s MCP clients wait by default; at most 300). An agent whose
   * client waits less than this sees its client's timeout instead.
   */
  timeoutSeconds?: number;
  handler: (args: z.output<I>, context: ToolCallContext) => HandlerResult<O> | Promise<HandlerResult<O>>;
}

/** A result as the Tool Host API takes it. */
export type CallResult = SubmittedResult;

/** The Tool definition as registered: what the server sizes, stores and offers. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
}

/** Longest error text sent for a failed call: the model needs the reason, not a novel (the host logs it all). */
const ERROR_TEXT_CHARS = 4096;

function isZodSchema(value: unknown): value is z.ZodType {
  return (
    typeof value === "object" &&
    value !== null &&
    "_zod" in value &&
    typeof (value as { safeParseAsync?: unknown }).safeParseAsync === "function"
  );
}

function jsonSchemaOf(schema: z.ZodType, io: "input" | "output", tool: string): Record<string, unknown> {
  let converted: Record<string, unknown>;
  try {
    converted = z.toJSONSchema(schema, { io, unrepresentable: "throw" }) as Record<string, unknown>;
  } catch (error) {
    throw new ToolDefinitionError(
      "TOOL_SCHEMA_UNREPRESENTABLE",
      `Tool "${tool}"'s ${io} schema cannot be written as JSON Schema (${(error as Error).message}). Agents send and read JSON: use JSON types (z.iso.datetime() instead of z.date(), z.number() instead of z.bigint()).`,
      { tool },
    );
  }
  // The dialect is MCP's default (2020-12); naming it would only cost every identity's budget bytes.
  const { $schema: _dialect, ...rest } = converted;
  return rest;
}

/** Truncates text for the model, keeping whole characters. */
function clip(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const kept = Array.from(text.slice(0, chars * 2))
    .slice(0, chars)
    .join("");
  return kept.length < text.length ? `${kept}… (truncated; the host's log has the rest)` : text;
}

/** Error text as Quartermaster takes it: no NUL characters (they would refuse the result). */
export function errorText(text: string): string {
  return clip(text.replaceAll("\u0000", "\uFFFD"), ERROR_TEXT_CHARS);
}

export class DefinedTool {
  readonly definition: ToolDefinition;
  readonly name: string;
  /** The declared deadline of one call, if any (sent beside the definition, not in it). */
  readonly declaredTimeoutSeconds: number | undefined;
  private readonly input: z.ZodType;
  private readonly output: z.ZodType | undefined;
  private readonly handler: (args: unknown, context: ToolCallContext) => unknown;

  constructor(spec: ToolSpec<z.ZodType, z.ZodType | undefined>, index: number) {
    if (!spec || typeof spec !== "object")
      throw new ToolDefinitionError(
        "TOOL_DEFINITION_INVALID",
        "host.tool() takes one object: { name, description, input, handler }.",
      );
    const name = typeof spec.name === "string" ? spec.name : "";
    const where = name ? `Tool "${name}"` : `Tool #${index + 1}`;
    if (!isZodSchema(spec.input))
      throw new ToolDefinitionError(
        "TOOL_DEFINITION_INVALID",
        `${where}: input must be a zod schema, e.g. z.object({ invoiceId: z.string() }).`,
        { tool: name },
      );
    if (spec.output !== undefined && !isZodSchema(spec.output))
      throw new ToolDefinitionError("TOOL_DEFINITION_INVALID", `${where}: output must be a zod schema when given.`, {
        tool: name,
      });
    if (typeof spec.handler !== "function")
      throw new ToolDefinitionError("TOOL_DEFINITION_INVALID", `${where}: handler must be a function.`, { tool: name });
    if (typeof spec.description !== "string")
      throw new ToolDefinitionError("TOOL_DEFINITION_INVALID", `${where}: description must be a string.`, {
        tool: name,
      });

    this.name = name;
    this.input = spec.input;
    this.output = spec.output;
    this.handler = spec.handler as (args: unknown, context: ToolCallContext) => unknown;
    this.definition = {
      name,
      ...(spec.title !== undefined ? { title: spec.title } : {}),
      description: spec.description,
      inputSchema: jsonSchemaOf(spec.input, "input", name),
      ...(spec.output ? { outputSchema: jsonSchemaOf(spec.output, "output", name) } : {}),
      ...(spec.annotations !== undefined ? { annotations: spec.annotations } : {}),
    };
    // The per-Tool limits Quartermaster applies, applied here: a Tool over one fails at start-up.
    const checked = checkRegisteredTool(this.definition, index);
    if (!checked.ok) {
      const { code, message, details } = checked.failure;
      throw new RegistrationError(code, message, details, 422, true);
    }
    if (spec.timeoutSeconds !== undefined) {
      const refused = checkToolTimeout(name, spec.timeoutSeconds);
      if (refused) throw new RegistrationError(refused.code, refused.message, refused.details, 422, true);
    }
    this.declaredTimeoutSeconds = spec.timeoutSeconds;
  }

  /** Seconds one call may take: the declared deadline, or Quartermaster's default. */
  get timeoutSeconds(): number {
    return this.declaredTimeoutSeconds ?? TOOL_HOST_LIMITS.TOOL_CALL_TIMEOUT_DEFAULT_SECONDS.value;
  }

  /** The Tool as a registration lists it: its definition, and its deadline beside it when declared. */
  get registered(): ToolDefinition & { timeoutSeconds?: number } {
    return this.declaredTimeoutSeconds === undefined
      ? this.definition
      : { ...this.definition, timeoutSeconds: this.declaredTimeoutSeconds };
  }

  /** Runs one call; never throws: every failure is that call's error result (and a `problem` for the host's log). */
  async run(
    args: unknown,
    context: ToolCallContext,
  ): Promise<{ result: CallResult; problem?: string; error?: unknown }> {
    try {
      return await this.runUnguarded(args, context);
    } catch (error) {
      // A refinement in the schema itself threw: the host's bug, this call's failure.
      return {
        result: { error: errorText(`${this.name} failed.`) },
        problem: `failed while checking its arguments or result: ${(error as Error)?.message ?? String(error)}`,
        error,
      };
    }
  }

  private async runUnguarded(
    args: unknown,
    context: ToolCallContext,
  ): Promise<{ result: CallResult; problem?: string; error?: unknown }> {
    const parsed = await this.input.safeParseAsync(args);
    // Quartermaster checked the arguments against the published JSON Schema already; what
    // fails here is what that schema cannot say (a refinement), and
    // it reaches the agent as the same INVALID_ARGUMENTS, worded the same way.
    if (!parsed.success)
      return {
        result: {
          error: errorText(invalidArgumentsMessage(describeZodIssues(parsed.error.issues))),
          code: "INVALID_ARGUMENTS",
        },
      };
    let value: unknown;
    try {
      value = await this.handler(parsed.data, context);
    } catch (thrown) {
      const message = thrown instanceof Error ? thrown.message : String(thrown);
      return {
        result: { error: errorText(message || `${this.name} failed.`) },
        problem: `its handler threw: ${message}`,
        error: thrown,
      };
    }
    if (isToolResultValue(value)) return this.contentResult(value);
    if (this.output) {
      const checked = await this.output.safeParseAsync(value);
      if (!checked.success)
        return {
          result: { error: errorText(`${this.name} returned a result that does not match its output schema.`) },
          problem: `it returned a value that does not match its output schema:\n${z.prettifyError(checked.error)}`,
        };
      value = checked.data;
    }
    let output: string;
    try {
      output = typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value);
    } catch (error) {
      return {
        result: { error: errorText(`${this.name} returned a result that cannot be written as JSON.`) },
        problem: `it returned a value JSON.stringify refused (${(error as Error).message})`,
        error,
      };
    }
    // The same rules Quartermaster applies: an output over them fails this call only.
    const failure = checkResultOutput(output);
    if (failure)
      return {
        result: { error: failure.message, code: failure.code },
        problem: `${failure.code}: ${failure.message}`,
      };
    return { result: { output } };
  }

  /** A toolResult(): its blocks as sent, its structured value checked against the output schema. */
  private async contentResult(
    value: ToolResultValue,
  ): Promise<{ result: CallResult; problem?: string; error?: unknown }> {
    let structured: unknown = value.structured;
    if (this.output) {
      const checked = await this.output.safeParseAsync(structured);
      if (!checked.success)
        return {
          result: { error: errorText(`${this.name} returned a result that does not match its output schema.`) },
          problem: `its toolResult() structured value does not match its output schema:\n${z.prettifyError(checked.error)}`,
        };
      structured = checked.data;
    }
    let content: ResultContentBlock[];
    try {
      // As JSON, the way it travels: undefined fields dropped, a Date as its string.
      content = JSON.parse(JSON.stringify(value.content)) as ResultContentBlock[];
      if (structured !== undefined) structured = JSON.parse(JSON.stringify(structured));
    } catch (error) {
      return {
        result: { error: errorText(`${this.name} returned a result that cannot be written as JSON.`) },
        problem: `its toolResult() holds a value JSON.stringify refused (${(error as Error).message})`,
        error,
      };
    }
    const object = typeof structured === "object" && structured !== null && !Array.isArray(structured);
    // MCP: a Tool with structured content should mirror it as text, for clients that read only text.
    if (structured !== undefined && !content.some((b) => b?.type === "text"))
      content = [{ type: "text", text: JSON.stringify(structured) }, ...content];
    const structuredContent = object ? (structured as Record<string, unknown>) : undefined;
    const failure = checkResultContent(content, structuredContent);
    if (failure)
      return {
        result: { error: failure.message, code: failure.code },
        problem: `${failure.code}: ${failure.message}`,
      };
    return { result: { content, ...(structuredContent ? { structuredContent } : {}) } };
  }
}

/** Top-level argument names Quartermaster reserves, found in a definition (for the host's own log only). */
export function reservedArguments(definition: ToolDefinition): string[] {
  return reservedArgumentNames(definition.inputSchema);
}
