/**
 * Lists an MCP server's Tools page by page with the SDK client, enforcing every
 * catalog-check limit while the pages stream in: a check that breaks one stops at once
 * and throws CheckFailure, abandoning the one page it had already asked for.
 */

import { setMaxListeners } from "node:events";
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { fmt, fmtBytes } from "@/universal/format";
import { type CheckFailure, DomainError, isCheckFailure } from "../../errors";
import { LIMITS } from "../../limits";
import { AS_SENT, NotJsonRpc, ResponseTooLarge } from "./catalog-transport";
import { AddressBlocked, causeChain, systemCode, unreachable } from "./guarded-dispatcher";
import { checkVerdictFor, connectionKey, rememberVerdict } from "./protocol-verdicts";
import { openSourceExchange, type SourceExchange } from "./source-exchange";
import { listSurface, SURFACE_LIMITS, type SurfaceList } from "./surface-lister";
import { type PublishedTool, validateToolDefinition } from "./validate-tool";

export interface ListProgress {
  pages: number;
  tools: number;
  bytes: number;
}

export interface ListOptions {
  /** The Source checked: its remembered negotiation verdict may spare the probe, and is kept. */
  sourceId?: string;
  url: string;
  headers: Record<string, string>;
  allowLinkLocal: boolean;
  /** Aborts the listing (e.g. the Source was deleted). */
  signal?: AbortSignal;
  onProgress?: (progress: ListProgress) => void | Promise<void>;
  /** Each page's Tools once they pass every limit, while the next page is on its way. */
  onPage?: (tools: PublishedTool[]) => void;
  /** List the Source's resources, templates and prompts after its Tools (default true). */
  surface?: boolean;
  /** Limits, overridable for tests of the limit machinery itself. */
  limits?: Partial<typeof DEFAULT_LIMITS>;
}

const DEFAULT_LIMITS = {
  wallClockMs: LIMITS.CHECK_WALL_CLOCK_MS.value,
  pages: LIMITS.CHECK_PAGES.value,
  tools: LIMITS.CHECK_TOOLS.value,
  definitionBytes: LIMITS.CHECK_DEFINITION_BYTES.value,
  responseBytes: LIMITS.REMOTE_RESPONSE_BYTES.value,
  ...SURFACE_LIMITS,
};

export async function listMcpCatalog(
  options: ListOptions,
): Promise<{ tools: PublishedTool[]; progress: ListProgress; protocolVersion?: string; surface: SurfaceList[] }> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const started = Date.now();
  const progress: ListProgress = { pages: 0, tools: 0, bytes: 0 };
  // A failure seen inside the transport (an oversized or unparsable response, a blocked
  // address) is kept here: the SDK may report it only as a closed or timed-out request.
  let transportFailure: CheckFailure | undefined;

  const tooLarge = (received: number) =>
    new DomainError(
      "CATALOG_RESPONSE_TOO_LARGE",
      `One response from the server passed ${fmtBytes(limits.responseBytes)} (received ${fmtBytes(received)} before stopping); a remote response may be at most ${fmtBytes(limits.responseBytes)}.`,
      { measured: received, limit: limits.responseBytes, unit: "bytes", page: progress.pages + 1 },
    );
  let exchange: SourceExchange;
  try {
    exchange = openSourceExchange({
      url: options.url,
      headers: options.headers,
      allowLinkLocal: options.allowLinkLocal,
      responseBytes: limits.responseBytes,
      timeoutMs: limits.wallClockMs,
      signal: options.signal,
      clientName: "quartermaster-catalog-check",
    });
  } catch (error) {
    if (error instanceof AddressBlocked) throw addressBlocked(error);
    throw error;
  }
  const { client, transport, controller } = exchange;
  // Each page's request and fetch listen on this one signal, for at most `pages` pages of
  // Tools and `surfacePages` of each other list.
  setMaxListeners((limits.pages + 3 * limits.surfacePages) * 4 + 16, controller.signal);
  const fail = (failure: CheckFailure) => {
    transportFailure ??= failure;
    controller.abort(failure);
  };
  client.onerror = (error) => {
    if (error instanceof ResponseTooLarge) return fail(tooLarge(error.received));
    for (const e of causeChain(error)) {
      if (e instanceof AddressBlocked) return fail(addressBlocked(e));
    }
    const message = String((error as Error)?.message ?? error);
    if (error instanceof NotJsonRpc) {
      fail(new DomainError("CATALOG_MALFORMED_RESPONSE", message, { page: progress.pages + 1 }));
    } else if (
      error instanceof SyntaxError ||
      (error as { name?: string }).name === "ZodError" ||
      (error instanceof SdkError && error.code === SdkErrorCode.InvalidResult)
    ) {
      fail(
        new DomainError(
          "CATALOG_MALFORMED_RESPONSE",
          `The server sent something that is not JSON-RPC: ${message.slice(0, 300)}`,
          { page: progress.pages + 1 },
        ),
      );
    } else if (message.includes("unknown message ID")) {
      // Otherwise the request we did make would wait for an answer until the clock ran out.
      fail(
        new DomainError(
          "CATALOG_MALFORMED_RESPONSE",
          "The server answered a request that was never made (wrong JSON-RPC id).",
          { page: progress.pages + 1 },
        ),
      );
    }
  };

  const remaining = () => Math.max(1, limits.wallClockMs - (Date.now() - started));
  const tools: PublishedTool[] = [];
  const names = new Set<string>();
  const cursors = new Set<string>();
  let connected = false;
  const failureContext = () => ({
    transportFailure,
    controller,
    started,
    limits,
    progress,
    outerSignal: options.signal,
    connected,
    tooLarge,
  });
  try {
    const key = connectionKey([options.url, options.headers, options.allowLinkLocal, limits.responseBytes]);
    const prior = options.sourceId ? checkVerdictFor(options.sourceId, key) : undefined;
    await client.connect(transport, { signal: controller.signal, timeout: remaining(), ...(prior ? { prior } : {}) });
    connected = true;
    if (options.sourceId && !prior) {
      const discover = client.getDiscoverResult();
      rememberVerdict(options.sourceId, key, discover ? { kind: "modern", discover } : { kind: "legacy" });
    }
    const request = (cursor: string | undefined) => {
      const pending = client.request(
        { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
        AS_SENT,
        { signal: controller.signal, timeout: remaining() },
      );
      // Awaited in turn below; until then a failure must not count as unhandled.
      pending.catch(() => {});
      return pending;
    };
    let next: ReturnType<typeof request> | undefined = request(undefined);
    while (next) {
      const page = progress.pages + 1;
      // The SDK's own result schema would refuse a whole page for one Tool whose schema a
      // model cannot take; such a Tool belongs in the catalog, marked, so the page is read
      // as the server sent it and every Tool is judged by validateToolDefinition.
      const answer = await next;
      const result = transport.rawResult(answer.tools) ?? answer;
      next = undefined;
      if (!Array.isArray(result.tools)) {
        throw new DomainError(
          "CATALOG_MALFORMED_RESPONSE",
          `Page ${page}'s "tools" is not an array (got ${result.tools === null ? "null" : typeof result.tools}).`,
          { page },
        );
      }
      progress.pages = page;
      const cursor = result.nextCursor;
      if (cursor !== undefined && cursor !== null && cursor !== "") {
        if (typeof cursor !== "string") {
          throw new DomainError("CATALOG_MALFORMED_RESPONSE", `Page ${page}'s "nextCursor" is not a string.`, {
            page,
          });
        }
        if (cursors.has(cursor)) {
          throw new DomainError(
            "CATALOG_CURSOR_LOOP",
            `Page ${page} returned a cursor the server had already returned; the listing would never end.`,
            { page, cursor: cursor.slice(0, 100) },
          );
        }
        if (page >= limits.pages) {
          throw new DomainError(
            "CATALOG_TOO_MANY_PAGES",
            `The catalog needs more than ${fmt(limits.pages)} pages: page ${fmt(limits.pages)} still returned a nextCursor. One check may read at most ${fmt(limits.pages)} pages.`,
            { measured: `more than ${limits.pages}`, limit: limits.pages, unit: "pages" },
          );
        }
        cursors.add(cursor);
        // The server works on the next page while this one is checked; a failure below
        // aborts that request with the rest of the check.
        next = request(cursor);
        // Checking a page is synchronous: let the request go out on the socket first.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      const pageTools: PublishedTool[] = [];
      for (const [index, raw] of result.tools.entries()) {
        if (progress.tools + 1 > limits.tools) {
          throw new DomainError(
            "CATALOG_TOO_MANY_TOOLS",
            `The catalog has more than ${fmt(limits.tools)} Tools (passed the limit on page ${page}); one Source may publish at most ${fmt(limits.tools)}.`,
            { measured: `more than ${limits.tools}`, limit: limits.tools, unit: "Tools", page },
          );
        }
        const tool = validateToolDefinition(raw, { page, index });
        if (names.has(tool.nativeName)) {
          throw new DomainError(
            "CATALOG_DUPLICATE_TOOL_NAME",
            `Two Tools are named "${tool.nativeName}" (the second on page ${page}); native names must be unique within a Source.`,
            { tool: tool.nativeName, page },
          );
        }
        names.add(tool.nativeName);
        progress.tools++;
        progress.bytes += tool.definitionBytes;
        if (progress.bytes > limits.definitionBytes) {
          throw new DomainError(
            "CATALOG_TOO_LARGE",
            `The Tool definitions passed ${fmtBytes(limits.definitionBytes)} on page ${page} (${fmtBytes(progress.bytes)} so far); a catalog may hold at most ${fmtBytes(limits.definitionBytes)} of definitions.`,
            { measured: progress.bytes, limit: limits.definitionBytes, unit: "bytes", page },
          );
        }
        pageTools.push(tool);
        tools.push(tool);
      }
      options.onPage?.(pageTools);
      await options.onProgress?.({ ...progress });
    }
    // The Tools are all in; what else the Source offers is recorded, never failing the check.
    const surface =
      options.surface === false
        ? []
        : await listSurface({
            capabilities: client.getServerCapabilities() as Record<string, unknown> | undefined,
            request: (method, cursor) =>
              client.request({ method, params: cursor === undefined ? {} : { cursor } } as never, AS_SENT, {
                signal: controller.signal,
                timeout: remaining(),
              }),
            failureOf: (error, where) => {
              const failure = toCheckFailure(error, { ...failureContext(), where });
              return isCheckFailure(failure)
                ? failure
                : new DomainError("CATALOG_TRANSPORT_ERROR", unreachable(error, "The server could not be reached"));
            },
            limits,
          });
    // Deleted or shutting down meanwhile: the check as a whole ends, as it would during the Tools.
    // (Only then: a caller listing Tools alone may stop after the last page, as Test connection does.)
    if (options.surface !== false && options.signal?.aborted) throw options.signal.reason;
    return { tools, progress, protocolVersion: client.getNegotiatedProtocolVersion(), surface };
  } catch (error) {
    throw toCheckFailure(error, failureContext());
  } finally {
    await exchange.close();
  }
}

function addressBlocked(e: AddressBlocked): CheckFailure {
  return new DomainError(
    "CATALOG_ADDRESS_BLOCKED",
    `${e.address} is ${e.reason}; an admin must allow link-local addresses first.`,
    { address: e.address },
  );
}

function toCheckFailure(
  error: unknown,
  ctx: {
    transportFailure?: CheckFailure;
    controller: AbortController;
    started: number;
    limits: typeof DEFAULT_LIMITS;
    progress: ListProgress;
    outerSignal?: AbortSignal;
    connected: boolean;
    tooLarge: (received: number) => CheckFailure;
    /** Where the failure happened, when not in tools/list. */
    where?: string;
  },
): unknown {
  if (isCheckFailure(error)) return error;
  if (ctx.transportFailure) return ctx.transportFailure;
  if (error instanceof ResponseTooLarge) return ctx.tooLarge(error.received);
  if (ctx.outerSignal?.aborted) return ctx.outerSignal.reason ?? error;
  const elapsed = Date.now() - ctx.started;
  const page = ctx.progress.pages + 1;
  const where = ctx.where ?? (ctx.connected ? `while reading page ${page}` : "while connecting");
  const timedOut =
    (ctx.controller.signal.aborted && elapsed >= ctx.limits.wallClockMs - 50) ||
    (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout);
  if (timedOut) {
    return new DomainError(
      "CATALOG_TIMEOUT",
      `The check did not finish within ${fmt(ctx.limits.wallClockMs / 1000)} s (stopped ${where}, after ${fmt(ctx.progress.tools)} Tools).`,
      { measured: elapsed, limit: ctx.limits.wallClockMs, unit: "ms", page },
    );
  }
  for (const e of causeChain(error)) {
    if (e instanceof AddressBlocked) return addressBlocked(e);
  }
  // Version negotiation wraps what the transport threw; the answer is inside.
  const http = causeChain(error).find((e) => e instanceof SdkHttpError) as SdkHttpError | undefined;
  if (http) {
    const status = http.status ?? 0;
    if (status === 401 || status === 403) {
      return new DomainError(
        "CATALOG_UNAUTHORIZED",
        `The server refused the Connection's credentials (HTTP ${status}). Check the auth headers.`,
        { status, page },
      );
    }
    if (status > 0) {
      return new DomainError("CATALOG_HTTP_ERROR", `The server answered HTTP ${status} ${where}.`, {
        status,
        page,
        measured: status,
      });
    }
    return new DomainError(
      "CATALOG_MALFORMED_RESPONSE",
      `The server's answer ${where} is not an MCP response: ${http.message.slice(0, 300)}`,
      { page },
    );
  }
  const unusable = causeChain(error).find(
    (e) => e instanceof SdkError && e.code === SdkErrorCode.ClientHttpUnexpectedContent,
  ) as SdkError | undefined;
  if (unusable)
    return new DomainError(
      "CATALOG_MALFORMED_RESPONSE",
      `The server's answer ${where} is not an MCP response: ${unusable.message.slice(0, 300)}`,
      { page },
    );
  if (error instanceof ProtocolError) {
    return new DomainError(
      "CATALOG_REMOTE_ERROR",
      `The server answered ${where} with JSON-RPC error ${error.code}: ${error.message.slice(0, 300)}`,
      { code: error.code, page },
    );
  }
  if (
    causeChain(error).some(
      (e) =>
        e instanceof SyntaxError ||
        e instanceof NotJsonRpc ||
        (e as { name?: string })?.name === "ZodError" ||
        (e instanceof SdkError && e.code === SdkErrorCode.InvalidResult),
    )
  ) {
    return new DomainError("CATALOG_MALFORMED_RESPONSE", `The server's answer ${where} is not valid JSON-RPC.`, {
      page,
    });
  }
  return new DomainError("CATALOG_TRANSPORT_ERROR", unreachable(error, "The server could not be reached"), {
    code: systemCode(error),
    page,
  });
}
