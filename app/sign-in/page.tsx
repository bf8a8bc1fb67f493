import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { RETURN_PARAM, safeReturnPath } from "@/components/layout/return-to";
import { SignInForm } from "@/components/layout/sign-in-form";
import { isOAuthSignIn, resumePath } from "@/components/oauth/resume";
import { sessionActor } from "@/server/trpc/context";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  const query = await searchParams;
  const asked = query[RETURN_PARAM];
  // Sent here by the authorization server for an MCP client: back to its request after.
  const next = isOAuthSignIn(query) ? resumePath(query) : safeReturnPath(typeof asked === "string" ? asked : null);
  if (await sessionActor(await headers())) redirect(next);
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center gap-2">
          {/* biome-ignore lint/performance/noImgElement: a small SVG logo */}
          <img src="/favicon.svg" alt="" className="size-8" />
          <div>
            <h1 className="text-lg font-semibold">Sign in to Quartermaster</h1>
            <p className="text-sm text-muted">The control plane for your agents' tools and memory.</p>
          </div>
        </div>
        <SignInForm next={next} />
      </div>
    </main>
  );
}
