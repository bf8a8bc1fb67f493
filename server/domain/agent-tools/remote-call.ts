/**
 * Calls one Tool on an MCP Connection's server: a fresh exchange (initialize, tools/call,
 * end of session) opened as a catalog check opens its own (openSourceExchange): the same
 * transport, network policy and remote-response limit.
 */
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { LIMITS } from "../../limits";
import { ResponseTooLarge } from "../catalog/catalog-transport";
import { fmt, fmtBytes } from "../catalog/failures";
import { AddressBlocked, causeChain, unreachable } from "../catalog/guarded-dispatcher";
import { openSourceExchange, type SourceExchange } from "../catalog/source-exchange";
import { ToolCallFailure } from "./failures";

// Read loosely: the result's limits are checked by acceptToolResult, with reasons the
// agent can act on, rather than by the SDK's schema.
const LooseResult = z.object({}).passthrough();

export async function callRemoteTool(options: {
  url: string;
  headers: Record<string, string>;
  allowLinkLocal: boolean;
  nativeName: string;
  arguments: Record<string, unknown>;
  signal?: AbortSignal;
  /** The Tool Call time limit; overridable for tests of the timeout itself. */
  timeoutMs?: number;
}): Promise<Record<string, unknown>> {
  const timeoutMs = options.timeoutMs ?? LIMITS.TOOL_CALL_MS.value;
  let exchange: SourceExchange | undefined;
  let transportFailure: unknown;
  try {
    exchange = openSourceExchange({
      url: options.url,
      headers: options.headers,
      allowLinkLocal: options.allowLinkLocal,
      responseBytes: LIMITS.REMOTE_RESPONSE_BYTES.value,
      timeoutMs,
      signal: options.signal,
      clientName: "quartermaster",
    });
    const { client, transport, controller } = exchange;
    client.onerror = (error) => {
      transportFailure ??= error;
    };
    await client.connect(transport, { signal: controller.signal, timeout: timeoutMs });
    return await client.request(
      { method: "tools/call", params: { name: options.nativeName, arguments: options.arguments } },
      LooseResult,
      { signal: controller.signal, timeout: timeoutMs },
    );
  } catch (error) {
    const timedOut = exchange?.controller.signal.aborted === true && !options.signal?.aborted;
    throw toFailure(transportFailure ?? error, timedOut, timeoutMs);
  } finally {
    await exchange?.close();
  }
}

function toFailure(error: unknown, timedOut: boolean, timeoutMs: number): ToolCallFailure {
  for (const e of causeChain(error)) {
    if (e instanceof ResponseTooLarge) {
      const limit = LIMITS.REMOTE_RESPONSE_BYTES.value;
      return new ToolCallFailure(
        "REMOTE_RESPONSE_TOO_LARGE",
        `The Source's answer passed ${fmtBytes(limit)} (received ${fmtBytes(e.received)} before stopping); a remote response may be at most ${fmtBytes(limit)}.`,
        { measured: e.received, limit, unit: "bytes" },
      );
    }
    if (e instanceof AddressBlocked)
      return new ToolCallFailure(
        "SOURCE_ADDRESS_BLOCKED",
        `The Source's address ${e.address} is ${e.reason}; an admin must allow link-local addresses first.`,
      );
  }
  if (timedOut || (error instanceof McpError && error.code === -32001))
    return new ToolCallFailure(
      "TOOL_CALL_TIMEOUT",
      `The Source did not answer within ${fmt(timeoutMs / 1000)} s; one Tool Call may take at most that long.`,
      { limit: timeoutMs, unit: "ms" },
    );
  if (error instanceof McpError && error.code !== -32001)
    return new ToolCallFailure(
      "SOURCE_CALL_ERROR",
      `The Source refused the call (JSON-RPC ${error.code}): ${sourceMessage(error.message).slice(0, 500)}`,
      { jsonRpcCode: error.code },
    );
  if (error instanceof StreamableHTTPError)
    return new ToolCallFailure("SOURCE_UNREACHABLE", `The Source answered HTTP ${error.code}.`, {
      status: error.code,
    });
  return new ToolCallFailure("SOURCE_UNREACHABLE", unreachable(error, "The Source could not be reached"));
}

/**
 * The Source's own words: the SDK prefixes "MCP error <code>: " to a JSON-RPC error's message,
 * and a Source that is itself a proxy often sent one already; the code is stated once, by us.
 */
export function sourceMessage(message: string): string {
  return message.replace(/^(\s*MCP error -?\d+:\s*)+/i, "").trim() || "(no message)";
}
