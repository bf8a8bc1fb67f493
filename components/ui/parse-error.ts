/**
 * A failed tRPC call as the console reads it, in one place: the server's own message (which
 * names the field or limit), the Quartermaster code (error.data.domainCode, set by the
 * error formatter in server/trpc/init.ts), the input field it names reduced to its top
 * level ("headers.X-Key" belongs under the headers rows), and the HTTP status.
 */
export interface ParsedError {
  message: string;
  code: string | null;
  field: string | null;
  status: number | null;
  details: Record<string, unknown> | null;
}

interface TrpcErrorLike {
  message?: unknown;
  data?: { domainCode?: unknown; httpStatus?: unknown; details?: Record<string, unknown> | null } | null;
}

export function parseError(error: unknown): ParsedError | null {
  if (!error) return null;
  const { message, data } = error as TrpcErrorLike;
  const field = data?.details?.field;
  return {
    message: typeof message === "string" ? message : "Something went wrong.",
    code: typeof data?.domainCode === "string" ? data.domainCode : null,
    field: typeof field === "string" ? (field.split(".")[0] ?? null) : null,
    status: typeof data?.httpStatus === "number" ? data.httpStatus : null,
    details: data?.details ?? null,
  };
}
