import { createApiKey, listApiKeys, revokeApiKey } from "../../domain/api-keys/api-keys";
import { ZCreateApiKeyInput, ZRevokeApiKeyInput } from "../../domain/api-keys/schemas";
import { procedure, router } from "../init";

export const apiKeysRouter = router({
  list: procedure("admin").query(({ ctx }) => listApiKeys(ctx.actor)),
  create: procedure("admin")
    .input(ZCreateApiKeyInput)
    .mutation(({ ctx, input }) => createApiKey(ctx.actor, input)),
  revoke: procedure("admin")
    .input(ZRevokeApiKeyInput)
    .mutation(({ ctx, input }) => revokeApiKey(ctx.actor, input)),
});
