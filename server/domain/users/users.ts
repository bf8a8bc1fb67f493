import { randomUUID } from "node:crypto";
import { type Actor, requireRole, SYSTEM } from "../../actor";
import { hashConsolePassword, verifyConsolePassword } from "../../auth/passwords";
import { getDb } from "../../db";
import type { Tx } from "../../db/types";
import { DomainError, notFound } from "../../errors";
import type { Role } from "../../roles";
import { recordAudit } from "../audit/record";
import { operation } from "../operation";
import { ZCreateUserInput, ZResetPasswordInput, ZUpdateUserInput } from "./schemas";

const publicUser = {
  id: true,
  email: true,
  name: true,
  role: true,
  disabledAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

export async function listUsers(actor: Actor) {
  requireRole(actor, "admin");
  const db = await getDb();
  const users = await db.user.findMany({ select: publicUser, orderBy: { createdAt: "asc" } });
  const lastSeen = await db.session.groupBy({ by: ["userId"], _max: { updatedAt: true } });
  const seen = new Map(lastSeen.map((s) => [s.userId, s._max.updatedAt]));
  return users.map((u) => ({ ...u, lastSeenAt: seen.get(u.id) ?? null }));
}

export const createUser = operation({ role: "admin", input: ZCreateUserInput }, async (actor, input) => {
  const db = await getDb();
  const hash = await hashConsolePassword(input.password);
  return db.$transaction(async (tx) => {
    const taken = await tx.user.findUnique({ where: { email: input.email }, select: { id: true } });
    if (taken)
      throw new DomainError("CONFLICT", `email: a user with ${input.email} already exists.`, { field: "email" });
    const user = await tx.user.create({
      data: { id: randomUUID(), email: input.email, name: input.name, role: input.role, emailVerified: true },
      select: publicUser,
    });
    await tx.account.create({
      data: { id: randomUUID(), userId: user.id, accountId: user.id, providerId: "credential", password: hash },
    });
    await recordAudit(tx, actor, {
      action: "user.create",
      targetType: "user",
      targetId: user.id,
      targetLabel: user.email,
      details: { role: user.role },
    });
    return user;
  });
});

async function enabledAdminsOtherThan(tx: Tx, id: string): Promise<number> {
  return tx.user.count({ where: { role: "admin", disabledAt: null, id: { not: id } } });
}

export const updateUser = operation({ role: "admin", input: ZUpdateUserInput }, async (actor, input) => {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const before = await tx.user.findUnique({ where: { id: input.id }, select: publicUser });
    if (!before) throw notFound("User");
    const losesAdmin =
      before.role === "admin" &&
      !before.disabledAt &&
      ((input.role !== undefined && input.role !== "admin") || input.disabled === true);
    if (losesAdmin && (await enabledAdminsOtherThan(tx, before.id)) === 0) {
      throw new DomainError("CONFLICT", "This is the last enabled admin; make another user admin first.");
    }
    const disabledAt =
      input.disabled === undefined ? undefined : input.disabled ? (before.disabledAt ?? new Date()) : null;
    const user = await tx.user.update({
      where: { id: input.id },
      data: { name: input.name, role: input.role, disabledAt },
      select: publicUser,
    });
    // A disabled user is signed out everywhere at once, not when a session expires.
    if (input.disabled) await tx.session.deleteMany({ where: { userId: user.id } });
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    if (input.name !== undefined && input.name !== before.name) changes.name = { from: before.name, to: user.name };
    if (input.role !== undefined && input.role !== before.role) changes.role = { from: before.role, to: user.role };
    if (input.disabled !== undefined && Boolean(before.disabledAt) !== input.disabled)
      changes.disabled = { from: Boolean(before.disabledAt), to: input.disabled };
    if (Object.keys(changes).length) {
      await recordAudit(tx, actor, {
        action: "user.update",
        targetType: "user",
        targetId: user.id,
        targetLabel: user.email,
        details: changes as never,
      });
    }
    return user;
  });
});

export const resetUserPassword = operation({ role: "admin", input: ZResetPasswordInput }, async (actor, input) => {
  const db = await getDb();
  const hash = await hashConsolePassword(input.password);
  await db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: input.id }, select: { id: true, email: true } });
    if (!user) throw notFound("User");
    const updated = await tx.account.updateMany({
      where: { userId: user.id, providerId: "credential" },
      data: { password: hash },
    });
    if (updated.count === 0) {
      await tx.account.create({
        data: { id: randomUUID(), userId: user.id, accountId: user.id, providerId: "credential", password: hash },
      });
    }
    await tx.session.deleteMany({ where: { userId: user.id } });
    await recordAudit(tx, actor, {
      action: "user.reset_password",
      targetType: "user",
      targetId: user.id,
      targetLabel: user.email,
    });
  });
});

/**
 * Makes sure an enabled admin with this email exists and signs in with this password
 * (the CLI's create-admin and QM_BOOTSTRAP_ADMIN_*). Idempotent.
 */
export async function ensureAdmin(input: { email: string; password: string; name?: string }): Promise<{
  created: boolean;
  id: string;
}> {
  const db = await getDb();
  const email = input.email.toLowerCase();
  const existing = await db.user.findUnique({ where: { email }, select: { id: true, role: true, disabledAt: true } });
  if (!existing) {
    const user = await createUser(SYSTEM, {
      email,
      name: input.name ?? email.split("@")[0] ?? "Admin",
      role: "admin" satisfies Role,
      password: input.password,
    });
    return { created: true, id: user.id };
  }
  if (existing.role !== "admin" || existing.disabledAt) {
    await updateUser(SYSTEM, { id: existing.id, role: "admin", disabled: false });
  }
  // Only when it differs: a reset signs the admin out everywhere, which a restart must not do.
  const account = await db.account.findFirst({
    where: { userId: existing.id, providerId: "credential" },
    select: { password: true },
  });
  if (!account?.password || !(await verifyConsolePassword(account.password, input.password))) {
    await resetUserPassword(SYSTEM, { id: existing.id, password: input.password });
  }
  return { created: false, id: existing.id };
}
