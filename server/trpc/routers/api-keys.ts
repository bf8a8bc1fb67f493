import { createApiKey, listApiKeys, revokeApiKey } from "../../domain/api-keys/api-keys";
import { procedure, router } from "../init";
import { mutationOf } from "../operations";

export const apiKeysRouter = router({
  list: procedure("admin").query(({ ctx }) => listApiKeys(ctx.actor)),
  create: mutationOf(createApiKey),
  revoke: mutationOf(revokeApiKey),
});
