import { parseError } from "./parse-error";

/** The message to show for a failed tRPC call: the server's own words, which name the field or limit. */
export function errorMessage(error: unknown): string | null {
  return parseError(error)?.message ?? null;
}
