/**
 * MCP protocol revisions as Quartermaster records them per Source. 2026-07-28 and later
 * are "modern": no session and no initialize, the revision travels with every request.
 * Earlier ones are reached with the initialize handshake.
 */
export const FIRST_MODERN_REVISION = "2026-07-28";

/** Revisions compare as dates (YYYY-MM-DD). */
export function isModernRevision(version: string): boolean {
  return version >= FIRST_MODERN_REVISION;
}
