/**
 * The server span and the metrics of one /mcp request. Its parent is the caller's trace
 * context when the agent sent one (traceparent), so an agent framework that traces sees
 * Quartermaster's spans inside its own trace.
 */
import { metrics } from "./metrics";
import { contextFromHeaders, SpanKind, withSpan } from "./tracing";

export async function observeMcpRequest(request: Request, handle: () => Promise<Response>): Promise<Response> {
  const t0 = performance.now();
  let status = 500;
  try {
    return await withSpan(
      "mcp.request",
      {
        kind: SpanKind.SERVER,
        parent: contextFromHeaders(request.headers),
        attributes: { "http.request.method": request.method, "url.path": "/mcp" },
      },
      async (span) => {
        const response = await handle();
        status = response.status;
        span.set({ "http.response.status_code": status });
        if (status >= 500) span.fail(`HTTP ${status}`);
        return response;
      },
    );
  } finally {
    metrics.mcpRequests.inc({ status: String(status) });
    metrics.mcpRequestSeconds.observe({}, (performance.now() - t0) / 1000);
  }
}
