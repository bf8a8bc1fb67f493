/** The message to show for a failed tRPC call: the server's own words, which name the field or limit. */
export function errorMessage(error: unknown): string | null {
  if (!error) return null;
  return (error as { message?: string }).message ?? "Something went wrong.";
}
