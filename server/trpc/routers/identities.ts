import { budgetHistory } from "../../domain/identities/budget-history";
import { listHoldings } from "../../domain/identities/holdings";
import {
  assignSource,
  createIdentity,
  deleteIdentity,
  getIdentity,
  listIdentities,
  previewAssignment,
  unassignSource,
  updateIdentity,
} from "../../domain/identities/identities";
import { listHoldingChanges } from "../../domain/identities/losses";
import { pinTool, unpinTool } from "../../domain/identities/pins";
import {
  ZAssignmentInput,
  ZCreateIdentityInput,
  ZCreateTokenInput,
  ZHoldingsInput,
  ZIdentityIdInput,
  ZListIdentitiesInput,
  ZLossesInput,
  ZPinInput,
  ZRevokeTokenInput,
  ZUpdateIdentityInput,
} from "../../domain/identities/schemas";
import { createToken, listTokens, revokeToken } from "../../domain/identities/tokens";
import { identityConfusablePairs } from "../../domain/tool-selection/views";
import { procedure, router } from "../init";

export const identitiesRouter = router({
  list: procedure("viewer")
    .input(ZListIdentitiesInput)
    .query(({ ctx, input }) => listIdentities(ctx.actor, input)),
  get: procedure("viewer")
    .input(ZIdentityIdInput)
    .query(({ ctx, input }) => getIdentity(ctx.actor, input)),
  /** Budget use over time, oldest first (a snapshot whenever it changed). */
  budgetHistory: procedure("viewer")
    .input(ZIdentityIdInput)
    .query(({ ctx, input }) => budgetHistory(ctx.actor, input)),
  create: procedure("operator")
    .input(ZCreateIdentityInput)
    .mutation(({ ctx, input }) => createIdentity(ctx.actor, input)),
  update: procedure("operator")
    .input(ZUpdateIdentityInput)
    .mutation(({ ctx, input }) => updateIdentity(ctx.actor, input)),
  delete: procedure("operator")
    .input(ZIdentityIdInput)
    .mutation(({ ctx, input }) => deleteIdentity(ctx.actor, input)),
  /** A Tool its selection lists first (exposure selection or auto past the listing budget). */
  pinTool: procedure("operator")
    .input(ZPinInput)
    .mutation(({ ctx, input }) => pinTool(ctx.actor, input)),
  unpinTool: procedure("operator")
    .input(ZPinInput)
    .mutation(({ ctx, input }) => unpinTool(ctx.actor, input)),
  previewAssignment: procedure("viewer")
    .input(ZAssignmentInput)
    .query(({ ctx, input }) => previewAssignment(ctx.actor, input)),
  assignSource: procedure("operator")
    .input(ZAssignmentInput)
    .mutation(({ ctx, input }) => assignSource(ctx.actor, input)),
  unassignSource: procedure("operator")
    .input(ZAssignmentInput)
    .mutation(({ ctx, input }) => unassignSource(ctx.actor, input)),
  holdings: procedure("viewer")
    .input(ZHoldingsInput)
    .query(({ ctx, input }) => listHoldings(ctx.actor, input)),
  /** Lost recently (and gained): the last 30 days of changes to what the identity holds. */
  losses: procedure("viewer")
    .input(ZLossesInput)
    .query(({ ctx, input }) => listHoldingChanges(ctx.actor, input)),
  /** The held Tools a model is most likely to confuse, pair by pair, with a suggested fix. */
  confusable: procedure("viewer")
    .input(ZIdentityIdInput)
    .query(({ ctx, input }) => identityConfusablePairs(ctx.actor, input)),
  tokens: procedure("viewer")
    .input(ZIdentityIdInput)
    .query(({ ctx, input }) => listTokens(ctx.actor, input)),
  createToken: procedure("operator")
    .input(ZCreateTokenInput)
    .mutation(({ ctx, input }) => createToken(ctx.actor, input)),
  revokeToken: procedure("operator")
    .input(ZRevokeTokenInput)
    .mutation(({ ctx, input }) => revokeToken(ctx.actor, input)),
});
