import { type Actor, SYSTEM } from "@/server/actor";
import { createIdentity } from "@/server/domain/identities/identities";
import { createToken } from "@/server/domain/identities/tokens";
import { createMemory } from "@/server/domain/memory/memories";
import { createScope, grantScope } from "@/server/domain/memory/scopes";

let n = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++n}`;

/** A scope file without its signature line: what a hand-edited file is once its signature no longer holds. */
export function withoutSignature(jsonl: string): string {
  const lines = jsonl.split("\n").filter((l) => l.trim() && !l.startsWith('{"type":"signature"'));
  return lines.length ? `${lines.join("\n")}\n` : "";
}

export async function makeScope(name = unique("scope")) {
  return createScope(SYSTEM, { name });
}

/** An Agent Identity (as /mcp would see it) with grants per scope. */
export async function makeAgent(grants: Record<string, "read" | "write"> = {}): Promise<Actor & { kind: "agent" }> {
  const identity = await createIdentity(SYSTEM, { name: unique("agent") });
  for (const [scopeId, access] of Object.entries(grants))
    await grantScope(SYSTEM, { scopeId, identityId: identity.id, access });
  const { token } = await createToken(SYSTEM, { identityId: identity.id, name: "test" });
  return { kind: "agent", identityId: identity.id, tokenId: token.id, label: `Agent Identity "${identity.name}"` };
}

export async function remember(
  scopeId: string,
  body: string,
  extra: Record<string, unknown> = {},
  actor: Actor = SYSTEM,
) {
  return createMemory(actor, { scopeId, body, ...extra });
}
