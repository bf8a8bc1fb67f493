import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { signInFor } from "@/components/layout/return-to";
import { ApproveForm } from "@/components/oauth/approve-form";
import { Card } from "@/components/ui/card";
import { OPERATOR_ONLY } from "@/server/auth/oauth";
import { describeAuthorization } from "@/server/domain/identities/oauth-grants";
import { sessionActor } from "@/server/trpc/context";

/**
 * The one screen of an MCP client's sign-in: which client asks, where it returns, and, for
 * an operator, the Agent Identity it will act as. Reached as the library's post-login step
 * (`/oauth/identity`) or, when a client insists on consent, as its consent step.
 */
export async function ApprovalPage({ query, consent }: { query: Record<string, string | string[]>; consent: boolean }) {
  const one = (name: string) => (typeof query[name] === "string" ? (query[name] as string) : "");
  const actor = await sessionActor(await headers());
  const search = new URLSearchParams(
    Object.entries(query).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]])),
  ).toString();
  if (actor?.kind !== "user") redirect(signInFor(`/oauth/resume?${search}`));
  const view = await describeAuthorization(actor, one("client_id"), one("redirect_uri"));
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-md">
        <h1 className="mb-4 text-lg font-semibold">Connect an agent to Quartermaster</h1>
        <Card className="space-y-4 p-5">
          {!view ? (
            <p role="alert">
              This authorization request names no client Quartermaster knows. Start again from the client.
            </p>
          ) : (
            <>
              <p>
                <strong data-testid="oauth-client-name">{view.clientName}</strong> asks to use Quartermaster's MCP
                endpoint. You will be sent back to{" "}
                <strong data-testid="oauth-redirect-host">{view.redirectHost}</strong>.
              </p>
              {view.documentHost ? (
                <p className="text-sm">
                  Its name and return addresses are published by{" "}
                  <strong data-testid="oauth-document-host">{view.documentHost}</strong> (the client's metadata
                  document).
                </p>
              ) : null}
              {view.mayApprove ? null : (
                <p role="alert" className="text-sm">
                  {OPERATOR_ONLY}
                </p>
              )}
              <ApproveForm identities={view.identities} mayApprove={view.mayApprove} consent={consent} />
            </>
          )}
        </Card>
      </div>
    </main>
  );
}
