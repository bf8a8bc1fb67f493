import { hashPassword, verifyPassword } from "better-auth/crypto";

/** Hashes a console password the same way better-auth verifies it at sign-in. */
export function hashConsolePassword(password: string): Promise<string> {
  return hashPassword(password);
}

export function verifyConsolePassword(hash: string, password: string): Promise<boolean> {
  return verifyPassword({ hash, password });
}
