import { errorMessage } from "@/components/ui/use-error";

/**
 * The input field a server error names (error.data.details.field), reduced to its top
 * level: "headers.X-Key" belongs under the headers rows.
 */
export function errorField(error: unknown): string | null {
  const field = (error as { data?: { details?: { field?: unknown } | null } } | null)?.data?.details?.field;
  return typeof field === "string" ? (field.split(".")[0] ?? null) : null;
}

/** A function giving each field its own error message, and whether any was placed. */
export function fieldErrors(error: unknown, fields: readonly string[]) {
  const field = errorField(error);
  const placed = field !== null && fields.includes(field);
  return {
    of: (name: string) => (placed && field === name ? errorMessage(error) : null),
    /** The error when no field shows it, so it is never lost. */
    unplaced: error && !placed ? error : null,
  };
}
