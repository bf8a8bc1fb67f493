"use client";

import { createContext, type ReactNode, useContext } from "react";
import { type Role, roleAllows } from "@/universal/roles";

export interface CurrentUser {
  id: string;
  name: string;
  email: string;
  role: Role;
}

const Ctx = createContext<CurrentUser | null>(null);

export function CurrentUserProvider({ user, children }: { user: CurrentUser; children: ReactNode }) {
  return <Ctx.Provider value={user}>{children}</Ctx.Provider>;
}

export function useCurrentUser(): CurrentUser {
  const user = useContext(Ctx);
  if (!user) throw new Error("useCurrentUser outside the console layout");
  return user;
}

/** Whether the signed-in user may do work that needs `role` (hides controls; the server decides). */
export function useCan(role: Role): boolean {
  return roleAllows(useCurrentUser().role, role);
}
