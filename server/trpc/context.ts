import { randomUUID } from "node:crypto";
import type { Actor } from "../actor";
import { getAuth } from "../auth";
import { authenticateApiKey } from "../domain/api-keys/api-keys";
import { log } from "../log";
import type { Role } from "../roles";
import { bearerToken } from "../tokens";
import type { Context } from "./init";

export function requestIdOf(headers: Headers): string {
  const given = headers.get("x-request-id");
  return given && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
}

/** The console user behind a session cookie, or null. Disabled users have no actor. */
export async function sessionActor(headers: Headers): Promise<Actor | null> {
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const user = session.user as typeof session.user & { role?: string; disabledAt?: Date | null };
  if (user.disabledAt) return null;
  return {
    kind: "user",
    id: user.id,
    email: user.email,
    name: user.name,
    role: (user.role ?? "viewer") as Role,
    // A memory's provenance names the session that wrote it (never its token).
    sessionId: session.session.id,
  };
}

export async function createContext(headers: Headers, requestId = requestIdOf(headers)): Promise<Context> {
  const child = log.child({ requestId });
  const authorization = headers.get("authorization");
  if (authorization) {
    const key = bearerToken(authorization);
    const actor = key ? await authenticateApiKey(key) : null;
    return {
      actor,
      authProblem: actor ? undefined : "The API key is not valid or has been revoked.",
      requestId,
      log: child,
    };
  }
  return { actor: await sessionActor(headers), requestId, log: child };
}
