import { randomBytes } from "node:crypto";
import { type Actor, SYSTEM } from "@/server/actor";
import { getAuth } from "@/server/auth";
import { createUser } from "@/server/domain/users/users";
import { log } from "@/server/log";
import type { Role } from "@/server/roles";
import { handleTrpcRequest } from "@/server/trpc/handler";
import { createCaller } from "@/server/trpc/root";

export const ORIGIN = "http://127.0.0.1:3000";

export async function makeUser(role: Role, overrides: { email?: string; password?: string } = {}) {
  const password = overrides.password ?? randomBytes(12).toString("base64url");
  const email = overrides.email ?? `${role}-${randomBytes(4).toString("hex")}@example.test`;
  const user = await createUser(SYSTEM, { email, name: `Test ${role}`, role, password });
  const actor: Actor = { kind: "user", id: user.id, email: user.email, name: user.name, role };
  return { user, actor, email, password };
}

/** The tRPC API as the console calls it, for one actor. */
export function callerFor(actor: Actor | null) {
  return createCaller({ actor, requestId: "test", log });
}

// The wire shape of a tRPC answer (superjson-wrapped), loosely typed for assertions.
type TrpcBody = {
  // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
  result: { data: { json: any } };
  error: { json: { message: string; data: Record<string, unknown> } };
};

/** A real HTTP request through the tRPC fetch handler (headers, status codes, JSON). */
export async function trpcHttp(
  procedure: string,
  options: { input?: unknown; headers?: Record<string, string>; mutation?: boolean } = {},
): Promise<{ status: number; body: TrpcBody }> {
  const json = JSON.stringify({ json: options.input ?? null });
  const url = new URL(`${ORIGIN}/api/trpc/${procedure}`);
  let init: RequestInit = { method: "GET", headers: options.headers };
  if (options.mutation)
    init = { method: "POST", body: json, headers: { "content-type": "application/json", ...options.headers } };
  else if (options.input !== undefined) url.searchParams.set("input", json);
  const response = await handleTrpcRequest(new Request(url, init));
  return { status: response.status, body: (await response.json()) as TrpcBody };
}

/** Signs in through better-auth's real endpoint; returns the Cookie header to send. */
export async function signIn(email: string, password: string): Promise<{ status: number; cookie: string | null }> {
  const auth = await getAuth();
  const response = await auth.handler(
    new Request(`${ORIGIN}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN },
      body: JSON.stringify({ email, password }),
    }),
  );
  const cookies = response.headers.getSetCookie().map((c) => c.split(";")[0]);
  return { status: response.status, cookie: cookies.length ? cookies.join("; ") : null };
}
