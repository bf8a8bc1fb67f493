/**
 * The demo's two call policies, so a new user meets both paths a call that needs a person
 * takes: "Billing service (demo)"'s `void_invoice` under `confirm` (the agent's user says yes
 * in their client) and `refund_invoice` under `approve` (an approver decides in Tools →
 * Approvals). Its Tools exist only once its process registered them, so this runs then
 * (server/demo/tool-host-launcher.ts), and only once: an operator's later change stands.
 */
import { SYSTEM } from "../../actor";
import { getDb } from "../../db";
import { setToolCallPolicy } from "../call-policies/set-policy";
import { readSetting, writeSetting } from "../system/settings";
import { BILLING_HOST } from "./seed";

export const DEMO_CALL_POLICIES = { void_invoice: "confirm", refund_invoice: "approve" } as const;

export async function applyDemoCallPolicies(): Promise<void> {
  if (!(await readSetting<boolean>("demo.seeded")) || (await readSetting<boolean>("demo.callPolicies"))) return;
  const db = await getDb();
  const tools = await db.tool.findMany({
    where: { source: { name: BILLING_HOST }, nativeName: { in: Object.keys(DEMO_CALL_POLICIES) } },
    select: { id: true, nativeName: true },
  });
  if (tools.length !== Object.keys(DEMO_CALL_POLICIES).length) return;
  for (const tool of tools)
    await setToolCallPolicy(SYSTEM, {
      toolId: tool.id,
      policy: DEMO_CALL_POLICIES[tool.nativeName as keyof typeof DEMO_CALL_POLICIES],
    });
  await writeSetting("demo.callPolicies", true);
}
