import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/layout/sign-in-form";
import { sessionActor } from "@/server/trpc/context";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage() {
  if (await sessionActor(await headers())) redirect("/tools/catalog");
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
        <SignInForm />
      </div>
    </main>
  );
}
