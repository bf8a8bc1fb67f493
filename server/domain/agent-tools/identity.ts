/**
 * The Agent Identity an /mcp request serves. An identity past its definition budget is
 * refused with IDENTITY_OVER_BUDGET on every request, naming the state and the remedy,
 * so its agents never wait on Tools that will not come.
 */
import { fmtBytes } from "@/universal/format";
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { DomainError } from "../../errors";
import { budgetOf } from "../identities/budget";

export interface ServedIdentity {
  id: string;
  name: string;
}

export async function servedIdentity(actor: Actor): Promise<ServedIdentity> {
  if (actor.kind !== "agent") throw new DomainError("FORBIDDEN", "Only an Agent Identity's token may use /mcp.");
  const db = await getDb();
  const identity = await db.agentIdentity.findUnique({
    where: { id: actor.identityId },
    select: { id: true, name: true },
  });
  if (!identity) throw new DomainError("UNAUTHENTICATED", "This token's Agent Identity no longer exists.");
  const budget = await budgetOf(identity.id);
  if (budget && budget.overByBytes > 0) {
    throw new DomainError(
      "IDENTITY_OVER_BUDGET",
      `Agent Identity "${identity.name}" is Over budget: its Tools and instructions take ${fmtBytes(budget.usedBytes)} of ${fmtBytes(budget.limitBytes)}, ${fmtBytes(budget.overByBytes)} too many. It is offered no Tools until an operator unassigns a Source or shortens its instructions.`,
      {
        state: "over_budget",
        usedBytes: budget.usedBytes,
        limitBytes: budget.limitBytes,
        overByBytes: budget.overByBytes,
      },
    );
  }
  return identity;
}
