import { z } from "zod";
import { LIMITS } from "./limits";

const NAME_CHARS = LIMITS.MCP_CONNECTION_NAME_CHARS.value;
// Characters as people count them (code points): an emoji is one, not two UTF-16 units.
const name = z
  .string()
  .trim()
  .min(1, "is required")
  .refine((v) => [...v].length <= NAME_CHARS, `must be at most ${NAME_CHARS} characters`);
const description = z.string().trim().max(1000, "must be at most 1,000 characters");

// RFC 9110 token characters; values may not carry line breaks (header injection).
const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, "must be a valid HTTP header name");
const headerValue = z
  .string()
  .max(8192, "must be at most 8,192 characters")
  .refine((v) => !/[\r\n\0]/.test(v), "must not contain line breaks");
export const ZHeaders = z
  .record(headerName, headerValue)
  .refine((h) => Object.keys(h).length <= 20, "at most 20 headers")
  .refine(
    (h) =>
      !Object.keys(h).some((k) =>
        ["host", "content-length", "content-type", "accept", "mcp-session-id", "mcp-protocol-version"].includes(
          k.toLowerCase(),
        ),
      ),
    "must not set Host, Content-Length, Content-Type, Accept or MCP protocol headers",
  );

export const CHECK_INTERVALS = { min: 60, max: 7 * 24 * 3600, default: 3600 } as const;
export const HEARTBEAT_TIMEOUTS = { min: 15, max: 24 * 3600, default: 120 } as const;

const checkIntervalSeconds = z
  .number()
  .int()
  .min(CHECK_INTERVALS.min, `must be at least ${CHECK_INTERVALS.min} seconds`)
  .max(CHECK_INTERVALS.max, "must be at most 7 days");
const heartbeatTimeoutSeconds = z
  .number()
  .int()
  .min(HEARTBEAT_TIMEOUTS.min, `must be at least ${HEARTBEAT_TIMEOUTS.min} seconds`)
  .max(HEARTBEAT_TIMEOUTS.max, "must be at most 24 hours");

/** review: new and changed Tools wait for an operator (Tools → Review); trust: offered as published. */
export const REVIEW_POLICIES = ["review", "trust"] as const;
const reviewPolicy = z.enum(REVIEW_POLICIES, { error: 'must be "review" or "trust"' });

export const ZCreateMcpConnectionInput = z.object({
  name,
  description: description.optional(),
  url: z.string().trim().min(1, "is required").max(2048, "must be at most 2,048 characters"),
  headers: ZHeaders.optional(),
  checkIntervalSeconds: checkIntervalSeconds.default(CHECK_INTERVALS.default),
  reviewPolicy: reviewPolicy.default("review"),
});
export type TCreateMcpConnectionInput = z.input<typeof ZCreateMcpConnectionInput>;

export const ZCreateToolHostInput = z.object({
  name,
  description: description.optional(),
  heartbeatTimeoutSeconds: heartbeatTimeoutSeconds.default(HEARTBEAT_TIMEOUTS.default),
  reviewPolicy: reviewPolicy.default("review"),
});
export type TCreateToolHostInput = z.input<typeof ZCreateToolHostInput>;

export const ZUpdateSourceInput = z.object({
  id: z.string().min(1),
  name: name.optional(),
  description: description.optional(),
  url: ZCreateMcpConnectionInput.shape.url.optional(),
  /** Replaces every header; omit to keep the current ones, `{}` to remove them all. */
  headers: ZHeaders.optional(),
  /**
   * With a URL on another origin and no new `headers`: send the saved headers to the new
   * origin anyway. Without it such a change is refused, so secrets never follow a URL unasked.
   */
  keepHeaders: z.boolean().optional(),
  checkIntervalSeconds: checkIntervalSeconds.optional(),
  heartbeatTimeoutSeconds: heartbeatTimeoutSeconds.optional(),
  paused: z.boolean().optional(),
});
export type TUpdateSourceInput = z.input<typeof ZUpdateSourceInput>;

export const ZSourceIdInput = z.object({ id: z.string().min(1) });

export const ZListSourcesInput = z
  .object({
    kind: z.enum(["mcp_connection", "sdk_tool_host"]).optional(),
    search: z.string().max(200).optional(),
  })
  .default({});

export const ZChecksInput = z.object({
  id: z.string().min(1),
  limit: z.number().int().min(1).max(200).default(50),
  /** Opaque; from the previous page's nextCursor. */
  cursor: z.string().max(40).optional(),
});

/** "Test connection": what a new MCP Connection would be reached with, before it is saved. */
// The name, when the form has one, is checked too: a taken name is caught before saving.
export const ZTestConnectionInput = ZCreateMcpConnectionInput.pick({ url: true, headers: true }).extend({
  name: ZCreateMcpConnectionInput.shape.name.optional(),
});
export type TTestConnectionInput = z.input<typeof ZTestConnectionInput>;
