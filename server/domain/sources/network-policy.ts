import { type Actor, requireRole } from "../../actor";
import { getDb } from "../../db";
import { announce } from "../../events";
import { recordAudit } from "../audit/record";
import { readSetting } from "../system/settings";
import type { UrlPolicy } from "./url-policy";

const KEY = "sources.allowLinkLocal";

export async function loadUrlPolicy(): Promise<UrlPolicy> {
  return { allowLinkLocal: (await readSetting<boolean>(KEY)) === true };
}

export async function getNetworkPolicy(actor: Actor): Promise<UrlPolicy> {
  requireRole(actor, "viewer");
  return loadUrlPolicy();
}

/** Admins only: lets Connections reach link-local and cloud-metadata addresses. */
export async function setNetworkPolicy(actor: Actor, input: UrlPolicy): Promise<UrlPolicy> {
  requireRole(actor, "admin");
  const db = await getDb();
  await db.$transaction(async (tx) => {
    await tx.installationSetting.upsert({
      where: { key: KEY },
      create: { key: KEY, value: input.allowLinkLocal },
      update: { value: input.allowLinkLocal },
    });
    await recordAudit(tx, actor, {
      action: "settings.network_policy",
      targetType: "installation",
      details: { allowLinkLocal: input.allowLinkLocal },
    });
  });
  announce("network-policy");
  return input;
}
