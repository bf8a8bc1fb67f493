/**
 * A loopback OTLP/HTTP receiver: it keeps every batch posted to it and answers as its mode says —
 * `accept` (200), `refuse` (400) or `hang` (never answers). The mode may change mid-test.
 */
import { gunzipSync } from "node:zlib";
import { listenOnLoopback } from "./loopback";

export type ReceiverMode = "accept" | "refuse" | "hang";

export interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
  events?: { name: string; attributes: { key: string; value: Record<string, unknown> }[] }[];
  status?: { code?: number; message?: string };
  /** The instrumentation scope it came in (added by the receiver). */
  scope?: string;
}

interface TraceBatch {
  resourceSpans: { scopeSpans: { scope?: { name: string }; spans: ExportedSpan[] }[] }[];
}

export async function startOtlpReceiver(initial: ReceiverMode = "accept") {
  const state = { mode: initial, requests: 0 };
  const batches: { path: string; body: string }[] = [];
  const spans: ExportedSpan[] = [];
  const { origin, close } = await listenOnLoopback((req, res) => {
    state.requests++;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const body = (req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8");
      const path = req.url ?? "/";
      batches.push({ path, body });
      if (path === "/v1/traces" && body.startsWith("{")) {
        for (const r of (JSON.parse(body) as TraceBatch).resourceSpans)
          for (const s of r.scopeSpans) spans.push(...s.spans.map((span) => ({ ...span, scope: s.scope?.name })));
      }
      if (state.mode === "hang") return;
      res.writeHead(state.mode === "accept" ? 200 : 400, { "content-type": "application/json" }).end("{}");
    });
  });
  return { url: origin, state, batches, spans, close };
}
