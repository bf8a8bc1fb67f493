import { parseError } from "@/components/ui/parse-error";
import { errorMessage } from "@/components/ui/use-error";

/** A function giving each field its own error message, and whether any was placed. */
export function fieldErrors(error: unknown, fields: readonly string[]) {
  const field = parseError(error)?.field ?? null;
  const placed = field !== null && fields.includes(field);
  return {
    of: (name: string) => (placed && field === name ? errorMessage(error) : null),
    /** The error when no field shows it, so it is never lost. */
    unplaced: error && !placed ? error : null,
  };
}
