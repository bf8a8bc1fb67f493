import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import type { Role } from "@/server/roles";
import { appRouter } from "@/server/trpc/root";
import { callerFor, makeUser, ORIGIN, signIn, trpcHttp } from "../helpers/actors";
import { withTestDatabase } from "../helpers/db";

withTestDatabase();

type Procedures = Record<string, { _def: { meta?: { role?: Role | readonly Role[] | "public" }; type: string } }>;
const procedures = appRouter._def.procedures as unknown as Procedures;

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "OK";
  } catch (error) {
    return error instanceof TRPCError ? error.code : String(error);
  }
}

/** Calls any procedure by its dotted path with an empty input; only the auth outcome matters here. */
function call(caller: ReturnType<typeof callerFor>, path: string) {
  const fn = path.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], caller) as (
    input: unknown,
  ) => Promise<unknown>;
  return fn({});
}

describe("roles", () => {
  it("every procedure declares the role it needs", () => {
    const undeclared = Object.entries(procedures)
      .filter(([, p]) => !p._def.meta?.role)
      .map(([path]) => path);
    expect(undeclared).toEqual([]);
    expect(Object.keys(procedures).length).toBeGreaterThan(5);
  });

  it("without a session or key every non-public procedure answers UNAUTHORIZED", async () => {
    const anonymous = callerFor(null);
    for (const [path, p] of Object.entries(procedures)) {
      if (p._def.meta?.role === "public") continue;
      expect(`${path}: ${await codeOf(call(anonymous, path))}`).toBe(`${path}: UNAUTHORIZED`);
    }
  });

  it("a role reaches only the procedures its role allows", async () => {
    const users = {
      viewer: await makeUser("viewer"),
      curator: await makeUser("curator"),
      operator: await makeUser("operator"),
    };
    const checked: string[] = [];
    for (const [path, p] of Object.entries(procedures)) {
      const needs = p._def.meta?.role;
      if (!needs || needs === "public" || needs === "viewer") continue;
      for (const [role, { actor }] of Object.entries(users)) {
        const allowed = typeof needs === "string" ? role === needs : needs.includes(role as Role);
        const code = await codeOf(call(callerFor(actor), path));
        if (allowed) expect(`${role} → ${path}: ${code}`).not.toBe(`${role} → ${path}: FORBIDDEN`);
        else expect(`${role} → ${path}: ${code}`).toBe(`${role} → ${path}: FORBIDDEN`);
        checked.push(`${role}:${path}`);
      }
    }
    expect(checked.length).toBeGreaterThan(0);
  });

  it("a viewer cannot write: creating a user or an API key is forbidden and changes nothing", async () => {
    const { actor } = await makeUser("viewer");
    const admin = await makeUser("admin");
    const before = (await callerFor(admin.actor).users.list()).length;
    const viewer = callerFor(actor);
    await expect(
      viewer.users.create({ email: "x@example.test", name: "X", role: "admin", password: "long-enough-password" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(viewer.apiKeys.create({ name: "nope", role: "admin" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await callerFor(admin.actor).users.list()).length).toBe(before);
  });

  it("a curator cannot reach operator procedures: no Sources, identities or checks, and nothing is written", async () => {
    const curator = callerFor((await makeUser("curator")).actor);
    const calls = [
      () => curator.sources.createMcpConnection({ name: "sneaky", url: "http://127.0.0.1:1/mcp" }),
      () => curator.sources.createToolHost({ name: "sneaky host" }),
      () => curator.identities.create({ name: "sneaky agent" }),
    ];
    for (const call of calls)
      await expect(call()).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining("operator") });
    const admin = callerFor((await makeUser("admin")).actor);
    expect((await admin.sources.list()).filter((s) => s.name.startsWith("sneaky"))).toEqual([]);
    expect((await admin.identities.list({ search: "sneaky" })).length).toBe(0);
    // Reading stays open to every role.
    await expect(curator.catalog.listTools({})).resolves.toMatchObject({ total: expect.any(Number) });
  });

  it("an admin may do everything, including operator and curator work", async () => {
    const { actor } = await makeUser("admin");
    for (const [path] of Object.entries(procedures)) {
      expect(`${path}: ${await codeOf(call(callerFor(actor), path))}`).not.toMatch(/FORBIDDEN|UNAUTHORIZED/);
    }
  });
});

describe("console sessions", () => {
  it("signing in gives a session cookie that the API accepts; a wrong password does not", async () => {
    const { email, password } = await makeUser("operator");
    const ok = await signIn(email, password);
    expect(ok.status).toBe(200);
    expect(ok.cookie).toBeTruthy();
    const me = await trpcHttp("me.get", { headers: { cookie: ok.cookie ?? "" } });
    expect(me.status).toBe(200);
    expect(me.body.result.data.json).toMatchObject({ email, role: "operator" });

    const bad = await signIn(email, "not-the-password-at-all");
    expect(bad.status).toBe(401);
    expect(bad.cookie).toBeNull();
  });

  it("disabling a user ends their sessions at once and refuses new sign-ins", async () => {
    const admin = await makeUser("admin");
    const { user, email, password } = await makeUser("curator");
    const { cookie } = await signIn(email, password);
    expect((await trpcHttp("me.get", { headers: { cookie: cookie ?? "" } })).status).toBe(200);

    await callerFor(admin.actor).users.update({ id: user.id, disabled: true });
    expect((await trpcHttp("me.get", { headers: { cookie: cookie ?? "" } })).status).toBe(401);
    expect((await signIn(email, password)).status).toBe(403);
  });

  it("refuses a cookie-authenticated write from another origin", async () => {
    const { email, password } = await makeUser("admin");
    const { cookie } = await signIn(email, password);
    const res = await trpcHttp("apiKeys.create", {
      mutation: true,
      input: { name: "csrf", role: "admin" },
      headers: { cookie: cookie ?? "", origin: "https://evil.example", host: new URL(ORIGIN).host },
    });
    expect(res.status).toBe(403);
    const same = await trpcHttp("apiKeys.create", {
      mutation: true,
      input: { name: "same-origin", role: "viewer" },
      headers: { cookie: cookie ?? "", origin: ORIGIN, host: new URL(ORIGIN).host },
    });
    expect(same.status).toBe(200);
  });

  it("the last enabled admin cannot be demoted or disabled", async () => {
    // A fresh set of admins: demote all but one, then try the last.
    const admins = (await callerFor((await makeUser("admin")).actor).users.list()).filter(
      (u) => u.role === "admin" && !u.disabledAt,
    );
    const keeper = admins[0]!;
    const keeperActor = {
      kind: "user" as const,
      id: keeper.id,
      email: keeper.email,
      name: keeper.name,
      role: "admin" as const,
    };
    for (const other of admins.slice(1)) await callerFor(keeperActor).users.update({ id: other.id, role: "viewer" });
    await expect(callerFor(keeperActor).users.update({ id: keeper.id, role: "operator" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await expect(callerFor(keeperActor).users.update({ id: keeper.id, disabled: true })).rejects.toMatchObject({
      code: "CONFLICT",
    });
  });
});
