/**
 * What an Agent Identity's agents are told at initialization: Quartermaster's cross-tool
 * policy, then the identity's own instructions exactly as stored. The identity's budget
 * counts those bytes (agent_identity.instructionsBytes), so what it counts is what is sent;
 * the policy is the same for every identity, like the built-in tools, and counted by none.
 * See docs/decisions/0024-instructions-and-agent-errors.md.
 */
import { getDb } from "../../db";

export const CROSS_TOOL_POLICY = `Quartermaster gives this agent its organization's memory and the Tools of its Agent Identity.

Memory (one scope at a time):
- Start a task with briefing: pinned memories, recent decisions, open threads, pending proposals and handoffs left for you (each handoff is returned once).
- Search before writing: call search with words or a question; remember only what is new. To correct a memory, remember the correction with supersedes set to the old id — memories never change.
- search and briefing return bodies cut short where marked truncated: true; get_memories reads whole bodies by id (up to 100 at once), as does the resource qm://memory/{id}.
- When you stop with work left open, call handoff (to an Agent Identity or a thread); end a session with debrief.
- configure_scope chooses the working scope (kept for your token); any memory tool also takes scope by name.

Tools: when the Tool you need is not in view, call find_tools with words from its name or purpose (or the user's request); it answers each match's name and input schema. Call the one you choose by that name — or, if your client only lets you call listed tools, through call_tool { name, arguments }.

Errors: a result marked isError starts with a code and says what to change — INVALID_ARGUMENTS names the argument and the rule; SCOPE_ACCESS_DENIED means no grant for that scope; TOOL_NOT_HELD says why and since when a Tool is gone. Fix the call or choose another; do not repeat it unchanged.`;

export const IDENTITY_INSTRUCTIONS_HEADING = "Instructions of this Agent Identity:";

/** The instructions string an initialize result carries for this identity. */
export function serverInstructions(identityInstructions: string): string {
  if (!identityInstructions) return CROSS_TOOL_POLICY;
  return `${CROSS_TOOL_POLICY}\n\n${IDENTITY_INSTRUCTIONS_HEADING}\n\n${identityInstructions}`;
}

export async function instructionsFor(identityId: string): Promise<string> {
  const db = await getDb();
  const identity = await db.agentIdentity.findUnique({ where: { id: identityId }, select: { instructions: true } });
  return serverInstructions(identity?.instructions ?? "");
}
