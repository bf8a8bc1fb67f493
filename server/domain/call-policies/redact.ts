/**
 * Arguments as a person deciding about a call sees them: an approver in the console, or the
 * agent's user asked to confirm (the question passes through their client, which may log
 * it). Values under names that say secret are replaced before anything leaves the server.
 */
import { LIMITS } from "../../limits";

/** A key that names a secret: its value is never shown to whoever decides about the call. */
const SECRET_KEY = /pass(word)?|secret|token|api[-_]?key|auth|credential|private[-_]?key|cookie|session/i;

export function redactArguments(value: unknown, depth = 0): unknown {
  if (depth > LIMITS.JSON_DEPTH.value) return "[…]";
  if (Array.isArray(value)) return value.map((v) => redactArguments(v, depth + 1));
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? "[redacted]" : redactArguments(v, depth + 1)]),
    );
  return value;
}
