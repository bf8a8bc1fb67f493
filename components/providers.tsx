"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { makeTrpcClient, ReadTimeout, TRPCProvider } from "./trpc/client";

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        // Tried even when the browser believes it is offline: a paused query left a page on
        // "Loading…" for good; a failed one shows its error and a Retry.
        networkMode: "always",
        // 4xx answers (forbidden, not found, bad input) will not change on retry.
        retry: (count, error) => {
          const status = (error as { data?: { httpStatus?: number } }).data?.httpStatus;
          if ((error as { cause?: unknown }).cause instanceof ReadTimeout) return false;
          return (!status || status >= 500) && count < 2;
        },
      },
      mutations: { networkMode: "always" },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(makeTrpcClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
