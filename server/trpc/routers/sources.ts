import { z } from "zod";
import { ZSetSourceCallPolicyInput } from "../../domain/call-policies/schemas";
import { setSourceCallPolicy } from "../../domain/call-policies/set-policy";
import { checkNow, checkProgress, listCheckChanges, listChecks } from "../../domain/catalog/checks";
import { ZCheckChangesInput } from "../../domain/catalog/schemas";
import { getSourceSurface, listSourceSurfaceItems } from "../../domain/catalog/surface";
import { getNetworkPolicy, setNetworkPolicy } from "../../domain/sources/network-policy";
import { ZChecksInput, ZSourceIdInput } from "../../domain/sources/schemas";
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
import { mutationOf, queryOf } from "../operations";

export const sourcesRouter = router({
  list: queryOf(listSources),
  get: queryOf(getSource),
  createMcpConnection: mutationOf(createMcpConnection),
  createToolHost: mutationOf(createToolHost),
  update: mutationOf(updateSource),
  delete: mutationOf(deleteSource),
  /** Who must agree before a call of this Source's Tools runs (a Tool's own policy wins); audited. */
  setCallPolicy: procedure("operator")
    .input(ZSetSourceCallPolicyInput)
    .mutation(({ ctx, input }) => setSourceCallPolicy(ctx.actor, input)),
  rotateHostToken: mutationOf(rotateHostToken),
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
  /** How the last successful check listed the Source's resources, resource templates and prompts. */
  surface: queryOf(getSourceSurface),
  /** One page of those, each with the URI or prompt name an agent uses at /mcp. */
  surfaceItems: queryOf(listSourceSurfaceItems),
  /** Lists the first page of a server's Tools with these settings, saving nothing. */
  testConnection: mutationOf(testConnection),
  networkPolicy: procedure("viewer").query(({ ctx }) => getNetworkPolicy(ctx.actor)),
  setNetworkPolicy: procedure("admin")
    .input(z.object({ allowLinkLocal: z.boolean() }))
    .mutation(({ ctx, input }) => setNetworkPolicy(ctx.actor, input)),
});
