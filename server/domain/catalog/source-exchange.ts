/**
 * One MCP exchange with a Source's server, as catalog checks and proxied Tool Calls both
 * make it: under a deadline and the caller's signal, through the guarded dispatcher, with
 * the remote-response limit counted by the transport. An IP-literal URL is checked here
 * too, before anything connects: the dispatcher's resolver never sees a literal.
 */
import { isIP } from "node:net";
import { Client } from "@modelcontextprotocol/client";
import { blockedAddressReason } from "../sources/url-policy";
import { CatalogTransport } from "./catalog-transport";
import { AddressBlocked, guardedDispatcher } from "./guarded-dispatcher";

export interface SourceExchange {
  client: Client;
  transport: CatalogTransport;
  /** Aborted at the deadline (reason: Error "timeout"), with the caller's signal, or by abort(). */
  controller: AbortController;
  /** Ends the session, the client and the connections; never throws. */
  close(): Promise<void>;
}

/**
 * A client that reaches a Source of any revision: it probes with server/discover
 * (2026-07-28) and falls back to initialize (2025 revisions) unless told the answer by
 * `connect(transport, { prior })` — see protocol-revision.ts.
 */
export function newSourceClient(name: string): Client {
  return new Client({ name, version: "1" }, { capabilities: {}, versionNegotiation: { mode: "auto" } });
}

/** Throws AddressBlocked for a blocked IP-literal URL, before anything is opened. */
export function openSourceExchange(options: {
  url: string;
  headers: Record<string, string>;
  allowLinkLocal: boolean;
  responseBytes: number;
  timeoutMs: number;
  signal?: AbortSignal;
  clientName: string;
}): SourceExchange {
  const url = new URL(options.url);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !options.allowLinkLocal) {
    const reason = blockedAddressReason(host);
    if (reason) throw new AddressBlocked(host, reason);
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error("timeout")), options.timeoutMs);
  const onOuterAbort = () => controller.abort(options.signal?.reason ?? new Error("aborted"));
  options.signal?.addEventListener("abort", onOuterAbort, { once: true });
  const dispatcher = guardedDispatcher(options.allowLinkLocal);
  const transport = new CatalogTransport(url, {
    headers: options.headers,
    dispatcher,
    signal: controller.signal,
    responseBytes: options.responseBytes,
  });
  const client = newSourceClient(options.clientName);
  return {
    client,
    transport,
    controller,
    async close() {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onOuterAbort);
      await transport.terminateSession().catch(() => {});
      await client.close().catch(() => {});
      await dispatcher.close().catch(() => {});
    },
  };
}
