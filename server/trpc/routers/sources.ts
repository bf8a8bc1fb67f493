import { z } from "zod";
import { ZSetSourceCallPolicyInput } from "../../domain/call-policies/schemas";
import { setSourceCallPolicy } from "../../domain/call-policies/set-policy";
import { checkNow, checkProgress, listCheckChanges, listChecks } from "../../domain/catalog/checks";
import { ZCheckChangesInput } from "../../domain/catalog/schemas";
import { getNetworkPolicy, setNetworkPolicy } from "../../domain/sources/network-policy";
import {
  ZChecksInput,
  ZCreateMcpConnectionInput,
  ZCreateToolHostInput,
  ZListSourcesInput,
  ZSourceIdInput,
  ZTestConnectionInput,
  ZUpdateSourceInput,
} from "../../domain/sources/schemas";
import {
  createMcpConnection,
  createToolHost,
  deleteSource,
  getSource,
  listSources,
  rotateHostToken,
  updateSource,
} from "../../domain/sources/sources";
import { testConnection } from "../../domain/sources/test-connection";
import { procedure, router } from "../init";

export const sourcesRouter = router({
  list: procedure("viewer")
    .input(ZListSourcesInput)
    .query(({ ctx, input }) => listSources(ctx.actor, input)),
  get: procedure("viewer")
    .input(ZSourceIdInput)
    .query(({ ctx, input }) => getSource(ctx.actor, input)),
  createMcpConnection: procedure("operator")
    .input(ZCreateMcpConnectionInput)
    .mutation(({ ctx, input }) => createMcpConnection(ctx.actor, input)),
  createToolHost: procedure("operator")
    .input(ZCreateToolHostInput)
    .mutation(({ ctx, input }) => createToolHost(ctx.actor, input)),
  update: procedure("operator")
    .input(ZUpdateSourceInput)
    .mutation(({ ctx, input }) => updateSource(ctx.actor, input)),
  delete: procedure("operator")
    .input(ZSourceIdInput)
    .mutation(({ ctx, input }) => deleteSource(ctx.actor, input)),
  /** Who must agree before a call of this Source's Tools runs (a Tool's own policy wins); audited. */
  setCallPolicy: procedure("operator")
    .input(ZSetSourceCallPolicyInput)
    .mutation(({ ctx, input }) => setSourceCallPolicy(ctx.actor, input)),
  rotateHostToken: procedure("operator")
    .input(ZSourceIdInput)
    .mutation(({ ctx, input }) => rotateHostToken(ctx.actor, input)),
  /** Returns when the check has finished, with its outcome. */
  checkNow: procedure("operator")
    .input(ZSourceIdInput)
    .mutation(({ ctx, input }) => checkNow(ctx.actor, input)),
  checkProgress: procedure("viewer")
    .input(ZSourceIdInput)
    .query(({ ctx, input }) => checkProgress(ctx.actor, input)),
  checks: procedure("viewer")
    .input(ZChecksInput)
    .query(({ ctx, input }) => listChecks(ctx.actor, input)),
  /** Which Tools one check or registration added, removed or changed. */
  checkChanges: procedure("viewer")
    .input(ZCheckChangesInput)
    .query(({ ctx, input }) => listCheckChanges(ctx.actor, input)),
  /** Lists the first page of a server's Tools with these settings, saving nothing. */
  testConnection: procedure("operator")
    .input(ZTestConnectionInput)
    .mutation(({ ctx, input }) => testConnection(ctx.actor, input)),
  networkPolicy: procedure("viewer").query(({ ctx }) => getNetworkPolicy(ctx.actor)),
  setNetworkPolicy: procedure("admin")
    .input(z.object({ allowLinkLocal: z.boolean() }))
    .mutation(({ ctx, input }) => setNetworkPolicy(ctx.actor, input)),
});
