import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Outputs = inferRouterOutputs<AppRouter>;

/** Shapes as they arrive in the browser (superjson keeps Dates as Dates). */
export type IdentityView = Outputs["identities"]["get"];
export type IdentityListItem = Outputs["identities"]["list"][number];
export type Budget = IdentityView["budget"];
export type AssignedSource = IdentityView["sources"][number];
export type HoldingChange = Outputs["identities"]["losses"]["items"][number];
export type AgentToken = Outputs["identities"]["tokens"][number];
export type OAuthGrant = Outputs["identities"]["oauthGrants"][number];
export type ConfusableView = Outputs["identities"]["confusable"];
export type BudgetSnapshot = Outputs["identities"]["budgetHistory"][number];
export type LinkFollowRate = Outputs["identities"]["linkFollowRates"]["clients"][number];
