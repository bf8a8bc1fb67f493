/**
 * Outbound connections to a Source's server: every address a hostname resolves to is
 * checked against the network policy when the connection is made, so a name that
 * resolves to a metadata address later (DNS rebinding) is refused too.
 */
import { lookup as dnsLookup } from "node:dns";
import { Agent } from "undici";
import { log } from "../../log";
import { blockedAddressReason, type Reach } from "../sources/url-policy";

export class AddressBlocked extends Error {
  constructor(
    readonly address: string,
    readonly reason: string,
  ) {
    super(`address blocked: ${address}`);
  }
}

/** Connects through a resolver that refuses blocked addresses at connect time (no DNS-rebinding gap). */
export function guardedDispatcher(allowLinkLocal: boolean, reach: Reach = "connections"): Agent {
  return new Agent({
    connect: {
      lookup(hostname, options, callback) {
        dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
          if (error) return callback(error, "", 0);
          const list = addresses as unknown as { address: string; family: number }[];
          if (!allowLinkLocal) {
            for (const a of list) {
              const reason = blockedAddressReason(a.address, reach);
              if (reason) return callback(new AddressBlocked(a.address, reason), "", 0);
            }
          }
          if ((options as { all?: boolean }).all)
            return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
          const first = list[0];
          if (!first) return callback(new Error(`no address for ${hostname}`), "", 0);
          callback(null, first.address, first.family);
        });
      },
    },
  });
}

/** An error and its causes, outermost first (SDK errors wrap the transport's). */
export function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current && chain.length < 6) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

// Errors whose `code` is a system or network code (the SDK's own errors carry codes of their own).
function networkCoded(error: unknown): unknown[] {
  return causeChain(error).filter(
    (e) =>
      typeof (e as { code?: unknown }).code === "string" &&
      !/^(SdkError|SdkHttpError|ProtocolError)$/.test((e as { name?: string }).name ?? ""),
  );
}

/** The system or network error code in an error's causes (ECONNREFUSED, UND_ERR_SOCKET, …), if any. */
export function systemCode(error: unknown): string | null {
  const coded = networkCoded(error);
  return ((coded.at(-1) as { code?: string } | undefined)?.code as string | undefined) ?? null;
}

/**
 * "Could not reach" in words a person can act on: a network error's own message (it names
 * the address and what happened), and nothing of any other exception, whose text speaks
 * of Quartermaster's or a library's internals; that one is logged instead.
 */
export function unreachable(error: unknown, sentence: string): string {
  const coded = networkCoded(error);
  const network = coded.at(-1) as (Error & { code: string }) | undefined;
  if (network) return `${sentence} (${network.code}): ${String(network.message).slice(0, 300)}`;
  log.warn({ err: error }, "a Source exchange failed without a network error");
  return `${sentence}.`;
}
