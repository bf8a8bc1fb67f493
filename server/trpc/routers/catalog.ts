import { ZTryToolInput } from "../../domain/agent-tools/try-schemas";
import { tryTool } from "../../domain/agent-tools/try-tool";
import { getCallPolicyDefaults, setCallPolicyDefaults } from "../../domain/call-policies/defaults";
import { ZCallPolicyDefaults, ZSetToolCallPolicyInput } from "../../domain/call-policies/schemas";
import { setToolCallPolicy } from "../../domain/call-policies/set-policy";
import { catalogFacets, getTool, listTools } from "../../domain/catalog/queries";
import { ZFacetsInput, ZListToolsInput, ZToolIdInput } from "../../domain/catalog/schemas";
import { toolNeighbours } from "../../domain/tool-selection/views";
import { procedure, router } from "../init";

export const catalogRouter = router({
  listTools: procedure("viewer")
    .input(ZListToolsInput)
    .query(({ ctx, input }) => listTools(ctx.actor, input)),
  facets: procedure("viewer")
    .input(ZFacetsInput)
    .query(({ ctx, input }) => catalogFacets(ctx.actor, input)),
  getTool: procedure("viewer")
    .input(ZToolIdInput)
    .query(({ ctx, input }) => getTool(ctx.actor, input)),
  /** The Tools across the catalog whose descriptions read most like this one's. */
  neighbours: procedure("viewer")
    .input(ZToolIdInput)
    .query(({ ctx, input }) => toolNeighbours(ctx.actor, input)),
  /** Who must agree before a call of this Tool runs (null: its Source's policy); audited. */
  setCallPolicy: procedure("operator")
    .input(ZSetToolCallPolicyInput)
    .mutation(({ ctx, input }) => setToolCallPolicy(ctx.actor, input)),
  /** The default rule: confirm Tools whose annotations say destructiveHint: true, unless set otherwise. */
  callPolicyDefaults: procedure("viewer").query(({ ctx }) => getCallPolicyDefaults(ctx.actor)),
  setCallPolicyDefaults: procedure("operator")
    .input(ZCallPolicyDefaults)
    .mutation(({ ctx, input }) => setCallPolicyDefaults(ctx.actor, input)),
  /** Calls a Tool as an Agent Identity would (the /mcp path), returning the JSON-RPC exchange; recorded. */
  tryTool: procedure("operator")
    .input(ZTryToolInput)
    .mutation(({ ctx, input }) => tryTool(ctx.actor, input)),
});
