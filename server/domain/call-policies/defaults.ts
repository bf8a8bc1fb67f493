/**
 * The default rule of call policies: when on, a Tool whose annotations say
 * `destructiveHint: true` is under `confirm` unless its own policy or its Source's says
 * otherwise. Off by default: annotations are the Source's own claims, and turning every
 * destructive Tool into a question is the installation's choice (docs/decisions/0075).
 */
import { type Actor, requireRole } from "../../actor";
import { announce } from "../../events";
import { readSetting, writeAuditedSetting } from "../system/settings";
import { parseInput } from "../validation";
import { type TCallPolicyDefaults, ZCallPolicyDefaults } from "./schemas";

const KEY = "callPolicies.confirmDestructive";

export async function loadCallPolicyDefaults(): Promise<TCallPolicyDefaults> {
  return { confirmDestructive: (await readSetting<boolean>(KEY)) === true };
}

export async function getCallPolicyDefaults(actor: Actor): Promise<TCallPolicyDefaults> {
  requireRole(actor, "viewer");
  return loadCallPolicyDefaults();
}

export async function setCallPolicyDefaults(actor: Actor, raw: TCallPolicyDefaults): Promise<TCallPolicyDefaults> {
  requireRole(actor, "operator");
  const input = parseInput(ZCallPolicyDefaults, raw);
  await writeAuditedSetting(actor, KEY, input.confirmDestructive, {
    action: "settings.call_policy_defaults",
    details: { confirmDestructive: input.confirmDestructive },
  });
  announce("catalog");
  return input;
}

/** Whether a stored definition's annotations say it is destructive. */
export function isDestructive(definition: unknown): boolean {
  const annotations = (definition as { annotations?: { destructiveHint?: unknown } } | null)?.annotations;
  return annotations?.destructiveHint === true;
}
