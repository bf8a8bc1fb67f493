/**
 * POST /api/oauth/approve: the consent page's one action. A signed-in operator approves
 * (or denies) a client's authorization request as an Agent Identity; the library's own
 * continue and consent steps then issue the code. The identity is handed to those steps in
 * this request's own context (server/auth/oauth.ts), so it is never taken from a request
 * the library cannot authenticate. Each authorization request is answered once, however
 * many tabs show it (oauth-decisions.ts, decision 0081).
 */
import { z } from "zod";
import type { Actor } from "../actor";
import { getDb } from "../db";
import { recordAudit } from "../domain/audit/record";
import type { ErrorCode } from "../errors";
import { CLIENT_ADDRESS_HEADER } from "../http/client-address";
import { problem } from "../http/problem";
import type { Role } from "../roles";
import { getAuth, trustedOrigins } from ".";
import { AUTH_BASE_PATH, CONSENT_PAGE, mayApprove, OPERATOR_ONLY, withChosenIdentity } from "./oauth";
import { answerOnce, claimInFlight, clientKey, type Outcome, release, requestKey } from "./oauth-decisions";

const ZApproveInput = z.object({
  oauth_query: z.string().min(1).max(8192),
  identityId: z.string().min(1).max(100).optional(),
  accept: z.boolean(),
  /** Whether the page was reached as the consent step (rather than the post-login one). */
  consent: z.boolean().optional(),
});

function refuse(code: ErrorCode, message: string): Response {
  return problem(code, message, undefined, { "cache-control": "no-store" });
}

/** The query a library step redirected to, when that is our consent page. */
function consentQuery(url: string): string | null {
  const parsed = new URL(url, "http://relative.invalid");
  return parsed.pathname === CONSENT_PAGE ? parsed.search.slice(1) : null;
}

class StepRefused extends Error {}

/** The losing tab's answer: what happened to the request, and that this page changed nothing. */
function alreadyAnswered(given: Outcome | null): Response {
  const message =
    given === "denied"
      ? "This request was already denied, in another tab or window: nothing was granted. To connect the client, start again from it."
      : given === "approved"
        ? "This request was already approved, in another tab or window: this page granted nothing more. You can close it."
        : "This request is being answered in another tab or window: this page changed nothing.";
  return refuse("ALREADY_ANSWERED", message);
}

/**
 * One of the library's own steps, through its HTTP handler as its browser client calls it
 * (the steps read the request itself), answered with the URL it redirects to.
 */
async function libraryStep(request: Request, path: string, body: Record<string, unknown>): Promise<string> {
  const auth = await getAuth();
  const headers = new Headers({ "content-type": "application/json", accept: "application/json" });
  // The client address too: better-auth's rate limiter buckets by it.
  for (const name of ["cookie", "origin", "user-agent", CLIENT_ADDRESS_HEADER]) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  const url = new URL(`${AUTH_BASE_PATH}${path}`, request.url);
  const answer = await auth.handler(new Request(url, { method: "POST", headers, body: JSON.stringify(body) }));
  const parsed = (await answer.json().catch(() => null)) as {
    url?: unknown;
    error_description?: unknown;
    message?: unknown;
  } | null;
  if (answer.ok && typeof parsed?.url === "string") return parsed.url;
  const reason = parsed?.error_description ?? parsed?.message;
  throw new StepRefused(
    typeof reason === "string" && reason ? reason : `The authorization server refused (${answer.status}).`,
  );
}

export async function handleApprove(request: Request): Promise<Response> {
  // Consent is state-changing and cookie-authenticated: only our own pages may post it.
  const origin = request.headers.get("origin");
  if (!origin || !trustedOrigins().includes(origin))
    return refuse("FORBIDDEN", "Approvals are accepted only from Quartermaster's own consent page.");
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers: request.headers });
  if (!session) return refuse("UNAUTHENTICATED", "Sign in to approve a client.");
  const user = session.user as typeof session.user & { role?: string; disabledAt?: Date | null };
  if (user.disabledAt) return refuse("UNAUTHENTICATED", "This account is disabled.");
  let input: z.infer<typeof ZApproveInput>;
  try {
    input = ZApproveInput.parse(await request.json());
  } catch {
    return refuse("INVALID_INPUT", "Send JSON with oauth_query (the page's query), accept, and identityId.");
  }
  const key = requestKey(input.oauth_query);
  const clientId = new URLSearchParams(input.oauth_query).get("client_id");
  if (!key || !clientId)
    return refuse("INVALID_INPUT", "oauth_query: not an authorization request (no client_id or code_challenge).");
  if (!input.accept) {
    const answer = await answerOnce(key, "denied", user.id);
    if (!answer.first) return alreadyAnswered(answer.given);
    try {
      const denied = await libraryStep(request, "/oauth2/consent", { accept: false, oauth_query: input.oauth_query });
      return Response.json({ redirect: denied }, { headers: { "cache-control": "no-store" } });
    } catch (error) {
      // Refused by the library (an expired or altered request): not answered, so the page may
      // be tried again. Any other failure keeps the claim: a code may have been issued.
      if (!(error instanceof StepRefused)) throw error;
      await release(key);
      return refuse("INVALID_INPUT", error.message);
    }
  }
  if (!mayApprove(user)) return refuse("FORBIDDEN", OPERATOR_ONLY);
  if (!input.identityId) return refuse("INVALID_INPUT", "identityId: choose the Agent Identity this client acts as.");
  const db = await getDb();
  const identity = await db.agentIdentity.findUnique({
    where: { id: input.identityId },
    select: { id: true, name: true },
  });
  if (!identity) return refuse("NOT_FOUND", "identityId: no Agent Identity has this id (it may have been deleted).");

  // The library finds a grant, then writes one: two approvals of one client at once would
  // both write.
  const inFlight = clientKey(clientId, user.id);
  if (!(await claimInFlight(inFlight, user.id)))
    return refuse(
      "CONFLICT",
      "Another tab or window is approving this client for you right now: nothing was approved here. Approve again once it is done.",
    );
  try {
    const answer = await answerOnce(key, "approved", user.id);
    if (!answer.first) return alreadyAnswered(answer.given);
    try {
      const url = await withChosenIdentity(identity.id, async () => {
        // The page is reached as the post-login step (choose the identity) or, when a client
        // insists on a fresh consent, as the consent step; either way this approval is both.
        const first = input.consent
          ? await libraryStep(request, "/oauth2/consent", { accept: true, oauth_query: input.oauth_query })
          : await libraryStep(request, "/oauth2/continue", { postLogin: true, oauth_query: input.oauth_query });
        const query = consentQuery(first);
        return query === null
          ? first
          : await libraryStep(request, "/oauth2/consent", { accept: true, oauth_query: query });
      });
      const client = await db.oauthClient.findUnique({ where: { clientId }, select: { name: true } });
      const actor: Actor = { kind: "user", id: user.id, email: user.email, name: user.name, role: user.role as Role };
      await db.$transaction((tx) =>
        recordAudit(tx, actor, {
          action: "identity.oauth_grant",
          targetType: "identity",
          targetId: identity.id,
          targetLabel: identity.name,
          details: { clientId, clientName: client?.name ?? null },
        }),
      );
      return Response.json({ redirect: url }, { headers: { "cache-control": "no-store" } });
    } catch (error) {
      if (!(error instanceof StepRefused)) throw error;
      await release(key);
      return refuse("INVALID_INPUT", error.message);
    }
  } finally {
    await release(inFlight);
  }
}
