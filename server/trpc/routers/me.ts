import { procedure, router } from "../init";

export const meRouter = router({
  /** Who the caller is; the console uses it to show and hide what a role can do. */
  get: procedure("viewer").query(({ ctx }) => {
    const a = ctx.actor;
    if (a.kind === "user") return { kind: a.kind, id: a.id, name: a.name, email: a.email, role: a.role };
    if (a.kind === "api_key") return { kind: a.kind, id: a.id, name: a.name, email: null, role: a.role };
    throw new Error("unreachable: procedure() admits only users and API keys");
  }),
});
