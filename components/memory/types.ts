import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Outputs = inferRouterOutputs<AppRouter>;
type Inputs = inferRouterInputs<AppRouter>;

/** Shapes as they arrive in the browser (superjson keeps Dates as Dates). */
export type ScopeItem = Outputs["scopes"]["list"][number];
export type ScopeGrant = Outputs["scopes"]["grants"][number];
export type IdentityGrant = Outputs["scopes"]["identityGrants"][number];
export type SearchInput = Inputs["memories"]["search"];
export type SearchResult = Outputs["memories"]["search"];
export type SearchHit = SearchResult["hits"][number];
export type MemoryRow = Outputs["memories"]["list"]["items"][number];
export type MemoryView = Outputs["memories"]["get"];
export type ThreadItem = Outputs["threads"]["list"]["items"][number];
export type ThreadView = Outputs["threads"]["get"];
export type ThreadMember = ThreadView["members"][number];
export type ProposalItem = Outputs["proposals"]["list"]["items"][number];
export type ProposalMemory = NonNullable<ProposalItem["memories"][number]>;
export type MemoryKind = Inputs["memories"]["create"]["kind"] & string;
export type MemoryState = SearchHit["state"];
