/**
 * Calls one Tool on an MCP Connection's server: a fresh stateless exchange (initialize,
 * tools/call, end of session) through the same transport and network policy as a catalog
 * check, with the remote-response limit counted while the answer streams in.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { LIMITS } from "../../limits";
import { CatalogTransport, ResponseTooLarge } from "../catalog/catalog-transport";
import { fmt, fmtBytes } from "../catalog/failures";
import { AddressBlocked, causeChain, guardedDispatcher } from "../catalog/guarded-dispatcher";
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
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error("timeout")), timeoutMs);
  const onOuterAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onOuterAbort, { once: true });
  const dispatcher = guardedDispatcher(options.allowLinkLocal);
  const transport = new CatalogTransport(new URL(options.url), {
    headers: options.headers,
    dispatcher,
    signal: controller.signal,
    responseBytes: LIMITS.REMOTE_RESPONSE_BYTES.value,
  });
  const client = new Client({ name: "quartermaster", version: "1" }, { capabilities: {} });
  let transportFailure: unknown;
  client.onerror = (error) => {
    transportFailure ??= error;
  };
  try {
    await client.connect(transport, { signal: controller.signal, timeout: timeoutMs });
    return await client.request(
      { method: "tools/call", params: { name: options.nativeName, arguments: options.arguments } },
      LooseResult,
      { signal: controller.signal, timeout: timeoutMs },
    );
  } catch (error) {
    throw toFailure(transportFailure ?? error, controller.signal.aborted && !options.signal?.aborted, timeoutMs);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onOuterAbort);
    await transport.terminateSession().catch(() => {});
    await client.close().catch(() => {});
    await dispatcher.close().catch(() => {});
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
    return new ToolCallFailure("SOURCE_CALL_ERROR", `The Source refused the call: ${error.message.slice(0, 500)}`, {
      jsonRpcCode: error.code,
    });
  if (error instanceof StreamableHTTPError)
    return new ToolCallFailure("SOURCE_UNREACHABLE", `The Source answered HTTP ${error.code}.`, {
      status: error.code,
    });
  return new ToolCallFailure(
    "SOURCE_UNREACHABLE",
    `The Source could not be reached: ${String((error as Error)?.message ?? error).slice(0, 300)}`,
  );
}
