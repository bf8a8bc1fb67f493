/**
 * The default rule of call policies: when on, a Tool whose annotations say
 * `destructiveHint: true` is under `confirm` unless its own policy or its Source's says
 * otherwise. Off by default: annotations are the Source's own claims, and turning every
 * destructive Tool into a question is the installation's choice (docs/decisions/0075).
 */
import { type Actor, requireRole } from "../../actor";
import { getDb } from "../../db";
import { announce } from "../../events";
import { recordAudit } from "../audit/record";
import { readSetting } from "../system/settings";
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
  const db = await getDb();
  await db.$transaction(async (tx) => {
    await tx.installationSetting.upsert({
      where: { key: KEY },
      create: { key: KEY, value: input.confirmDestructive },
      update: { value: input.confirmDestructive },
    });
    await recordAudit(tx, actor, {
      action: "settings.call_policy_defaults",
      targetType: "installation",
      details: { confirmDestructive: input.confirmDestructive },
    });
  });
  announce("catalog");
  return input;
}

/** Whether a stored definition's annotations say it is destructive. */
export function isDestructive(definition: unknown): boolean {
  const annotations = (definition as { annotations?: { destructiveHint?: unknown } } | null)?.annotations;
  return annotations?.destructiveHint === true;
}
