/**
 * OpenTelemetry traces: spans for /mcp requests, Tool Calls, the HTTP exchanges with
 * Sources and catalog checks, exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set. Unset, nothing is loaded and `withSpan` calls its function straight through, so
 * tracing that is off costs one boolean test (docs/decisions/0029-traces-and-metrics.md).
 *
 * The SDK lives on globalThis: Next.js bundles each route apart, and every bundle must
 * find the one provider (the OTel API keeps its globals there too).
 */
import {
  type Attributes,
  type Context,
  context,
  ProxyTracerProvider,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import { env } from "@/env";
import { INSTANCE_LIMITS } from "../limits";
import { log } from "../log";
import { metrics } from "./metrics";

export { SpanKind };

interface Tracing {
  endpoint: string;
  shutdown(): Promise<void>;
  flush(): Promise<void>;
}

const KEY = Symbol.for("quartermaster.tracing");
type Holder = { [KEY]?: { active: Tracing | null; starting?: Promise<Tracing> } };
const holder = globalThis as Holder;
holder[KEY] ??= { active: null };
const state = holder[KEY];

/** Starts exporting spans to an OTLP/HTTP collector (its base URL). Idempotent per endpoint. */
export async function startTracing(endpoint: string, serviceName = env.OTEL_SERVICE_NAME): Promise<void> {
  if (state.active?.endpoint === endpoint) return;
  if (state.active) await stopTracing();
  state.starting ??= (async () => {
    // Loaded only when tracing is on: an installation without a collector never pays for the SDK.
    const [{ AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, sdk, { OTLPTraceExporter }, res] =
      await Promise.all([
        import("@opentelemetry/context-async-hooks"),
        import("@opentelemetry/core"),
        import("@opentelemetry/sdk-trace"),
        import("@opentelemetry/exporter-trace-otlp-http"),
        import("@opentelemetry/resources"),
      ]);
    const exporter = counted(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, "")}/v1/traces` }), endpoint);
    const processor = new sdk.BatchSpanProcessor({ exporter, scheduledDelayMillis: 1000 });
    const provider = new sdk.TracerProvider({
      resource: res.resourceFromAttributes({ "service.name": serviceName }),
      // The gateway samples by its own policy (every request): an agent's traceparent gives
      // the trace to join, and its "not sampled" flag (00) does not switch the gateway's spans off.
      sampler: new sdk.AlwaysOnSampler(),
      spanProcessors: [processor],
    });
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(ownSpansOnly(provider));
    log.info({ endpoint }, "OpenTelemetry tracing on");
    return {
      endpoint,
      flush: () => provider.forceFlush(),
      shutdown: async () => {
        await provider.shutdown();
        trace.disable();
        context.disable();
        propagation.disable();
      },
    };
  })();
  try {
    state.active = await state.starting;
  } finally {
    state.starting = undefined;
  }
}

type Exporter = InstanceType<typeof import("@opentelemetry/exporter-trace-otlp-http").OTLPTraceExporter>;

// A collector that is down fails every batch: one log line a minute says so, the counter counts each.
const EXPORT_FAILURE_LOG_EVERY_MS = 60_000;
let lastFailureLoggedAt = 0;

/** The exporter, counting each batch in qm_trace_exports_total and logging failures (else silent). */
function counted(exporter: Exporter, endpoint: string): Exporter {
  const send = exporter.export.bind(exporter);
  exporter.export = (spans, done) =>
    send(spans, (result) => {
      // ExportResultCode.SUCCESS is 0.
      metrics.traceExports.inc({ outcome: result.code === 0 ? "sent" : "failed" });
      if (result.code !== 0 && Date.now() - lastFailureLoggedAt >= EXPORT_FAILURE_LOG_EVERY_MS) {
        lastFailureLoggedAt = Date.now();
        log.warn(
          { endpoint, spans: spans.length, err: result.error },
          "the trace collector did not take a batch of spans; they are dropped (qm_trace_exports_total counts each)",
        );
      }
      done(result);
    });
  return exporter;
}

/** The tracer name of Quartermaster's own spans: the only ones exported. */
export const TRACER = "quartermaster";

/**
 * Next.js and better-auth trace through the same global API: left alone they would export
 * a span for every page, tRPC call, probe and scrape, with `http.target` carrying tRPC
 * inputs (memory searches, e-mail searches). Any other tracer gets a no-op one, whose
 * spans record nothing and only pass a caller's trace context on (so Quartermaster's own
 * spans inside one become roots, or children of an agent's span, never of a span that
 * was not exported).
 */
function ownSpansOnly(provider: TracerProvider): TracerProvider {
  const noop = new ProxyTracerProvider(); // no delegate: its tracers are no-ops
  return {
    getTracer: (name, version, options) =>
      name === TRACER ? provider.getTracer(name, version, options) : noop.getTracer(name, version, options),
  };
}

/**
 * Sends the spans still buffered and turns tracing off (shutdown, tests), within `maxMs`:
 * a collector that refuses or hangs costs the spans it did not take, never the exit.
 * Never rejects.
 */
export async function stopTracing(maxMs = INSTANCE_LIMITS.TRACING_STOP_MS.value): Promise<void> {
  const active = state.active;
  state.active = null;
  if (!active) return;
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    active.shutdown().then(
      () => "sent" as const,
      (error: unknown) => error,
    ),
    new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), maxMs);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
  if (outcome === "sent") return;
  if (outcome === "timeout")
    log.warn(
      { endpoint: active.endpoint, waitedMs: maxMs },
      "the trace collector did not take the last spans in time; they are dropped",
    );
  else
    log.warn(
      { endpoint: active.endpoint, err: outcome },
      "the trace collector refused the last spans; they are dropped",
    );
  // The provider may still be retrying: the globals go now, whatever it does.
  trace.disable();
  context.disable();
  propagation.disable();
}

/** Sends the spans still buffered. */
export async function flushTracing(): Promise<void> {
  await state.active?.flush();
}

/** Turns tracing on from the environment, once; a no-op without OTEL_EXPORTER_OTLP_ENDPOINT. */
export async function startTracingFromEnv(): Promise<void> {
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) await startTracing(env.OTEL_EXPORTER_OTLP_ENDPOINT);
}

let envChecked = false;
function tracingOn(): boolean {
  if (!envChecked) {
    envChecked = true;
    // A route bundle may be the first code to run (next start without scripts/start.ts).
    if (env.OTEL_EXPORTER_OTLP_ENDPOINT && !state.active)
      startTracingFromEnv().catch((error: unknown) => log.error({ err: error }, "OpenTelemetry could not start"));
  }
  return state.active !== null;
}

/** What a traced function may add to its span; does nothing when tracing is off. */
export interface SpanHandle {
  set(attributes: Attributes): void;
  fail(message: string): void;
}

const OFF: SpanHandle = { set() {}, fail() {} };

function handle(span: Span): SpanHandle {
  return {
    set: (attributes) => span.setAttributes(attributes),
    fail: (message) => span.setStatus({ code: SpanStatusCode.ERROR, message }),
  };
}

/**
 * Runs `fn` inside a span (a child of the active one, or of `parent` when given), ended
 * when `fn` settles; a throw marks it failed. Tracing off: just `fn`.
 */
export async function withSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  fn: (span: SpanHandle) => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return fn(OFF);
  const tracer = trace.getTracer(TRACER);
  return tracer.startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
    options.parent ?? context.active(),
    async (span) => {
      try {
        return await fn(handle(span));
      } catch (error) {
        // Type and message only: a stack trace names the installation's files and lines.
        const { name, message } = error instanceof Error ? error : { name: "Error", message: String(error) };
        span.addEvent("exception", { "exception.type": name, "exception.message": message });
        span.setStatus({ code: SpanStatusCode.ERROR, message });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** Adds attributes to the span running now (the Tool Call's, the request's); nothing when tracing is off. */
export function annotateSpan(attributes: Attributes): void {
  if (state.active) trace.getActiveSpan()?.setAttributes(attributes);
}

/** The trace context an incoming request carries (traceparent), for its server span's parent. */
export function contextFromHeaders(headers: Headers): Context | undefined {
  if (!tracingOn() || !headers.has("traceparent")) return undefined;
  return propagation.extract(context.active(), headers, {
    get: (carrier, key) => carrier.get(key) ?? undefined,
    keys: (carrier) => [...carrier.keys()],
  });
}

/** W3C trace context headers (traceparent, tracestate) of the active span, for a request to a Source. */
export function traceHeaders(): Record<string, string> {
  if (!tracingOn()) return {};
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}
