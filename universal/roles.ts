/**
 * Roles and what each may do. Shared by the server and the console (to hide what a
 * role cannot use); in universal/ because it imports nothing server-only.
 */
export const ROLES = ["admin", "operator", "approver", "curator", "viewer"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  admin: "Everything, including users, API keys and installation settings.",
  operator: "Manages Tools (Sources, catalog checks, call policies) and Agent Identities.",
  approver: "Decides Tool Calls held for approval (Tools → Approvals).",
  curator: "Keeps agent memory clean: threads, scopes, proposals.",
  viewer: "Reads everything, changes nothing.",
};

/** Whether `role` may perform work that needs `required`. Admins may do everything. */
export function roleAllows(role: Role, required: Role): boolean {
  return role === "admin" || required === "viewer" || role === required;
}
