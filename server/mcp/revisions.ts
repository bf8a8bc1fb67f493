/**
 * The MCP protocol revisions /mcp serves, and which one a request speaks. 2026-07-28
 * requests carry their revision; 2025-era requests carry it in the MCP-Protocol-Version
 * header (since 2025-06-18), and a request without one is 2025-03-26, as the specification
 * says a server must assume. Older revisions (2024-11-05 spoke HTTP+SSE, not Streamable
 * HTTP) are not served: an initialize offering one is answered with the latest 2025 revision,
 * which the client may refuse.
 */
export const SERVED_REVISIONS = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"] as const;

/** What a request without a revision header speaks (the revision before the header existed). */
const HEADERLESS_REVISION = "2025-03-26";

/** The revision of a 2025-era request (the SDK refuses a header naming an unserved revision). */
export function legacyRevision(request: Request, parsedBody: unknown): string {
  const header = request.headers.get("mcp-protocol-version");
  if (header) return header;
  const message = (Array.isArray(parsedBody) ? parsedBody[0] : parsedBody) as
    | { method?: unknown; params?: { protocolVersion?: unknown } }
    | undefined;
  if (message?.method === "initialize" && typeof message.params?.protocolVersion === "string")
    return message.params.protocolVersion;
  return HEADERLESS_REVISION;
}

/** Revisions compare as dates (YYYY-MM-DD). */
export const revisionHas = (revision: string, since: string) => revision >= since;
