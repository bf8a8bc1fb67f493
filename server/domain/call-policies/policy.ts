/**
 * Call policies: who must agree before a call of a catalog Tool runs. `none` runs it at once;
 * `confirm` asks the agent's user through their client; `approve` parks it until a person
 * with the approver role decides in the console. Set per Source and per Tool; a Tool's own
 * policy wins (docs/decisions/0075).
 */

export const CALL_POLICIES = ["none", "confirm", "approve"] as const;
export type CallPolicyName = (typeof CALL_POLICIES)[number];

export interface EffectivePolicy {
  policy: CallPolicyName;
  /** Where it comes from, in words an operator and a model both read. */
  reason: string;
}

/**
 * The policy a call of this Tool is under, and why. `rule`: the default rule (defaults.ts):
 * whether it is on, and whether the Tool's annotations say destructiveHint: true.
 */
export function effectivePolicy(
  tool: { callPolicy: CallPolicyName | null },
  source: { name: string; callPolicy: CallPolicyName },
  rule?: { destructive: boolean; confirmDestructive: boolean },
): EffectivePolicy {
  if (tool.callPolicy) return { policy: tool.callPolicy, reason: `set on this Tool (${WORDS[tool.callPolicy]})` };
  if (source.callPolicy !== "none")
    return { policy: source.callPolicy, reason: `set on its Source "${source.name}" (${WORDS[source.callPolicy]})` };
  if (rule?.destructive && rule.confirmDestructive)
    return {
      policy: "confirm",
      reason: `its annotations say destructiveHint: true, and this installation confirms destructive Tools by default (${WORDS.confirm})`,
    };
  return { policy: "none", reason: "no policy is set on the Tool or its Source" };
}

const WORDS: Record<CallPolicyName, string> = {
  none: "calls run at once",
  confirm: "the agent's user confirms each call in their client",
  approve: "an approver approves each call in the console",
};
