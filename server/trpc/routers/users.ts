import { ZCreateUserInput, ZResetPasswordInput, ZUpdateUserInput } from "../../domain/users/schemas";
import { createUser, listUsers, resetUserPassword, updateUser } from "../../domain/users/users";
import { procedure, router } from "../init";

export const usersRouter = router({
  list: procedure("admin").query(({ ctx }) => listUsers(ctx.actor)),
  create: procedure("admin")
    .input(ZCreateUserInput)
    .mutation(({ ctx, input }) => createUser(ctx.actor, input)),
  update: procedure("admin")
    .input(ZUpdateUserInput)
    .mutation(({ ctx, input }) => updateUser(ctx.actor, input)),
  resetPassword: procedure("admin")
    .input(ZResetPasswordInput)
    .mutation(({ ctx, input }) => resetUserPassword(ctx.actor, input)),
});
