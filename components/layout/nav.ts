import type { Role } from "@/server/roles";

export interface NavItem {
  href: string;
  label: string;
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
      { href: "/tools/calls", label: "Calls" },
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
      { href: "/settings/users", label: "Users" },
      { href: "/settings/api-keys", label: "API keys" },
      { href: "/settings/audit-log", label: "Audit log" },
    ],
  },
];
