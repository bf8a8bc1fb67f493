import { type Role, roleAllows } from "@/universal/roles";

export interface NavItem {
  href: string;
  label: string;
  /** The role its page needs; shown only to roles that may open it (everyone when absent). */
  role?: Role;
}
export interface NavSection {
  label: string;
  items: NavItem[];
  /** Who sees the section; everyone when absent. */
  roles?: Role[];
}

export const NAV: NavSection[] = [
  {
    label: "Tools",
    items: [
      { href: "/tools/catalog", label: "Catalog" },
      { href: "/tools/sources", label: "Sources" },
      { href: "/tools/review", label: "Review" },
      { href: "/tools/calls", label: "Calls" },
      { href: "/tools/approvals", label: "Approvals", role: "approver" },
    ],
  },
  { label: "Agents", items: [{ href: "/agents", label: "Agent Identities" }] },
  {
    label: "Memory",
    items: [
      { href: "/memory/memories", label: "Memories" },
      { href: "/memory/threads", label: "Threads" },
      { href: "/memory/proposals", label: "Proposals" },
      { href: "/memory/scopes", label: "Scopes" },
    ],
  },
  {
    label: "Settings",
    items: [
      { href: "/settings/users", label: "Users", role: "admin" },
      { href: "/settings/api-keys", label: "API keys", role: "admin" },
      { href: "/settings/audit-log", label: "Audit log" },
    ],
  },
];

/** The navigation as a role sees it: no entry that would only answer "not allowed". */
export function navFor(role: Role): NavSection[] {
  return NAV.map((s) => ({ ...s, items: s.items.filter((i) => !i.role || roleAllows(role, i.role)) })).filter(
    (s) => s.items.length > 0 && (!s.roles || s.roles.includes(role)),
  );
}
