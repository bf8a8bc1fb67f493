"use client";

import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import superjson from "superjson";
import type { AppRouter } from "@/server/trpc/root";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/**
 * A read (GET) that has not answered in this long has failed: without a limit, a request
 * lost on a network that went quiet kept its page on "Loading…" with no way out. Writes
 * (POST: a check now, an import) may take longer and keep the browser's own limits.
 */
export const READ_TIMEOUT_MS = 30_000;

/** A read the server did not answer in time; not retried (it would only wait as long again). */
export class ReadTimeout extends Error {
  override name = "ReadTimeout";
  constructor() {
    super(`The server did not answer in ${READ_TIMEOUT_MS / 1000} seconds. Check the connection, then retry.`);
  }
}

const fetchWithReadTimeout: typeof fetch = async (input, init) => {
  if ((init?.method ?? "GET").toUpperCase() !== "GET") return fetch(input, init);
  const timeout = AbortSignal.timeout(READ_TIMEOUT_MS);
  try {
    return await fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
  } catch (error) {
    throw timeout.aborted ? new ReadTimeout() : error;
  }
};

export function makeTrpcClient() {
  return createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: "/api/trpc", transformer: superjson, fetch: fetchWithReadTimeout })],
  });
}
