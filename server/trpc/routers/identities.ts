import { budgetHistory } from "../../domain/identities/budget-history";
import { getClientRegistration, setClientRegistration } from "../../domain/identities/client-registration";
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
import { listOAuthGrants, revokeOAuthGrant } from "../../domain/identities/oauth-grants";
import { pinTool, unpinTool } from "../../domain/identities/pins";
import { ZIdentityIdInput, ZLossesInput } from "../../domain/identities/schemas";
import { createToken, listTokens, revokeToken } from "../../domain/identities/tokens";
import { listLinkFollowRates } from "../../domain/memory/link-evidence";
import { identityConfusablePairs } from "../../domain/tool-selection/views";
import { procedure, router } from "../init";
import { mutationOf, queryOf } from "../operations";

export const identitiesRouter = router({
  list: queryOf(listIdentities),
  get: queryOf(getIdentity),
  /** Budget use over time, oldest first (a snapshot whenever it changed). */
  budgetHistory: queryOf(budgetHistory),
  create: mutationOf(createIdentity),
  update: mutationOf(updateIdentity),
  delete: mutationOf(deleteIdentity),
  /** A Tool its selection lists first (exposure selection or auto past the listing budget). */
  pinTool: mutationOf(pinTool),
  unpinTool: mutationOf(unpinTool),
  previewAssignment: queryOf(previewAssignment),
  assignSource: mutationOf(assignSource),
  unassignSource: mutationOf(unassignSource),
  holdings: queryOf(listHoldings),
  /** Lost recently (and gained): the last 30 days of changes to what the identity holds. */
  losses: procedure("viewer")
    .input(ZLossesInput)
    .query(({ ctx, input }) => listHoldingChanges(ctx.actor, input)),
  /** The held Tools a model is most likely to confuse, pair by pair, with a suggested fix. */
  confusable: procedure("viewer")
    .input(ZIdentityIdInput)
    .query(({ ctx, input }) => identityConfusablePairs(ctx.actor, input)),
  tokens: queryOf(listTokens),
  createToken: mutationOf(createToken),
  revokeToken: mutationOf(revokeToken),
  oauthGrants: queryOf(listOAuthGrants),
  revokeOAuthGrant: mutationOf(revokeOAuthGrant),
  /** Per MCP client: how often a memory search or briefing returned truncated was then read in full. */
  linkFollowRates: queryOf(listLinkFollowRates),
  /** Whether OAuth clients may register themselves (RFC 7591), and at what rate per address. */
  clientRegistration: queryOf(getClientRegistration),
  setClientRegistration: mutationOf(setClientRegistration),
});
