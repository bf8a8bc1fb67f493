import { type Actor, requireRole } from "../../actor";
import { announce } from "../../events";
import { readSetting, writeAuditedSetting } from "../system/settings";
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
  await writeAuditedSetting(actor, KEY, input.allowLinkLocal, {
    action: "settings.network_policy",
    details: { allowLinkLocal: input.allowLinkLocal },
  });
  announce("network-policy");
  return input;
}
