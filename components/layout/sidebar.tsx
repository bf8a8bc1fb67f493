"use client";

import { Boxes, Brain, LogOut, Menu, Settings, Wrench, X } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { ROLE_DESCRIPTIONS, type Role } from "@/universal/roles";
import { cn } from "../ui/cn";
import { authClient } from "./auth-client";
import { navFor } from "./nav";
import { ThemeToggle } from "./theme";

const ICONS = { Tools: Wrench, Agents: Boxes, Memory: Brain, Settings } as const;

export function Sidebar({ user }: { user: { name: string; email: string; role: Role } }) {
  const pathname = usePathname();
  const router = useRouter();
  const [signingOut, setSigningOut] = useState(false);
  // Narrow screens: the navigation folds behind a Menu button and folds again after each move.
  const [open, setOpen] = useState(false);
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }

  return (
    <aside className="flex w-full shrink-0 flex-col border-b border-border bg-surface md:sticky md:top-0 md:h-screen md:w-60 md:border-r md:border-b-0">
      <div className="flex items-center gap-2 px-4 py-3 md:py-4">
        {/* biome-ignore lint/performance/noImgElement: a 24px SVG logo needs no optimisation */}
        <img src="/favicon.svg" alt="" className="size-6" />
        <span className="font-semibold tracking-tight">Quartermaster</span>
        <span className="ml-auto md:hidden">
          <RoleBadge role={user.role} />
        </span>
        <button
          type="button"
          aria-expanded={open}
          aria-controls="console-navigation"
          onClick={() => setOpen((o) => !o)}
          className="inline-flex items-center gap-1.5 rounded-md border border-border px-2.5 py-1.5 text-sm md:hidden"
        >
          {open ? <X className="size-4" aria-hidden /> : <Menu className="size-4" aria-hidden />}
          Menu
        </button>
      </div>
      <div id="console-navigation" className={cn("min-h-0 flex-1 flex-col md:flex", open ? "flex" : "hidden")}>
        <nav aria-label="Main" className="flex-1 overflow-y-auto px-2 pb-4">
          {navFor(user.role).map((section) => {
            const Icon = ICONS[section.label as keyof typeof ICONS];
            return (
              <div key={section.label} className="mt-3">
                <h2 className="flex items-center gap-2 px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-muted">
                  {Icon && <Icon className="size-3.5" aria-hidden />}
                  {section.label}
                </h2>
                <ul>
                  {section.items.map((item) => {
                    const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
                    return (
                      <li key={item.href}>
                        <Link
                          href={item.href}
                          aria-current={active ? "page" : undefined}
                          className={cn(
                            "block rounded-md px-2 py-1.5 text-sm",
                            active ? "bg-accent-soft font-medium text-accent" : "text-fg hover:bg-surface-2",
                          )}
                        >
                          {item.label}
                        </Link>
                      </li>
                    );
                  })}
                </ul>
              </div>
            );
          })}
        </nav>
        <div className="space-y-1 border-t border-border p-2">
          <div className="px-2 py-1.5">
            <p className="truncate text-sm font-medium" data-testid="current-user">
              {user.name}
            </p>
            <p className="truncate text-xs text-muted">{user.email}</p>
            <p className="mt-1 flex items-center gap-1.5 text-xs text-muted">
              Role <RoleBadge role={user.role} testId="current-role" />
            </p>
          </div>
          <ThemeToggle />
          <button
            type="button"
            disabled={signingOut}
            onClick={async () => {
              setSigningOut(true);
              await authClient.signOut();
              router.replace("/sign-in");
              router.refresh();
            }}
            className="inline-flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-sm text-muted hover:bg-surface-2 hover:text-fg"
          >
            <LogOut className="size-4" aria-hidden />
            {signingOut ? "Signing out…" : "Sign out"}
          </button>
        </div>
      </div>
    </aside>
  );
}

/** The signed-in user's role, so what the console offers (and hides) makes sense. */
function RoleBadge({ role, testId }: { role: Role; testId?: string }) {
  return (
    <span
      title={ROLE_DESCRIPTIONS[role]}
      data-testid={testId}
      className="inline-flex rounded-full border border-border bg-surface-2 px-2 py-0.5 text-xs font-medium text-fg"
    >
      {role}
    </span>
  );
}
