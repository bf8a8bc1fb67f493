import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { CurrentUserProvider } from "@/components/layout/current-user";
import { signInFor } from "@/components/layout/return-to";
import { Sidebar } from "@/components/layout/sidebar";
import { REQUEST_PATH_HEADER } from "@/server/http/request-path";
import { sessionActor } from "@/server/trpc/context";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const requestHeaders = await headers();
  const actor = await sessionActor(requestHeaders);
  // Back to the page asked for after signing in (a deep link to a Source, say).
  if (actor?.kind !== "user") redirect(signInFor(requestHeaders.get(REQUEST_PATH_HEADER)));
  return (
    <div className="flex min-h-screen flex-col md:flex-row">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-surface focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <CurrentUserProvider user={{ id: actor.id, name: actor.name, email: actor.email, role: actor.role }}>
        <Sidebar user={{ name: actor.name, email: actor.email, role: actor.role }} />
        <main id="main" className="min-w-0 flex-1 px-4 py-6 md:px-8">
          {children}
        </main>
      </CurrentUserProvider>
    </div>
  );
}
