import { createUser, listUsers, resetUserPassword, updateUser } from "../../domain/users/users";
import { procedure, router } from "../init";
import { mutationOf } from "../operations";

export const usersRouter = router({
  list: procedure("admin").query(({ ctx }) => listUsers(ctx.actor)),
  create: mutationOf(createUser),
  update: mutationOf(updateUser),
  resetPassword: mutationOf(resetUserPassword),
});
