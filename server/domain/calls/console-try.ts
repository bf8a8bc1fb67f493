/**
 * Calls an operator made with "Try this Tool" are recorded as the identity's, through the
 * same path, with this in place of a token id (no agent token was used), so the call log
 * can tell them from the agent's own.
 */
export const CONSOLE_TRY_TOKEN = "console";

export const isConsoleTry = (tokenId: string | null): boolean => tokenId === CONSOLE_TRY_TOKEN;
