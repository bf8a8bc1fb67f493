/**
 * /mcp's prompts: briefing (start of work), debrief (end of a session) and review_proposals
 * (the loop that keeps a scope clean, which nothing else in a session suggests). They carry
 * no memory content: each tells the model which tools to call, with the arguments given.
 */
import { DomainError } from "../errors";

interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  text(args: Record<string, string>): string;
}

const scopeArgument: PromptArgument = {
  name: "scope",
  description: "Scope to work in, by name; the working scope when omitted.",
  required: false,
};
const inScope = (args: Record<string, string>) => (args.scope ? ` with scope "${args.scope}"` : "");

const PROMPTS: PromptDefinition[] = [
  {
    name: "briefing",
    title: "Start work with a briefing",
    description: "Orient an agent starting work: read the scope's briefing, then search for what the task touches.",
    arguments: [
      scopeArgument,
      { name: "thread", description: "A thread to brief on, by name.", required: false },
      { name: "task", description: "What the agent is about to do.", required: false },
    ],
    text: (a) =>
      [
        `Call the briefing tool${inScope(a)}${a.thread ? ` and thread "${a.thread}"` : ""} before acting.`,
        "Read any handoffs addressed to you first: they say what another agent left open.",
        a.task
          ? `Then call search with the main words of this task: ${a.task}`
          : "Then search for the words of your task before deciding anything.",
        "Use get_memories for any hit marked truncated that matters.",
      ].join("\n"),
  },
  {
    name: "debrief",
    title: "End a session with a debrief",
    description: "Record what this session did, learned and decided, and hand off what is left.",
    arguments: [
      scopeArgument,
      { name: "summary", description: "What the session did, if already written.", required: false },
    ],
    text: (a) =>
      [
        `Call the debrief tool${inScope(a)} with:`,
        `- summary: ${a.summary ? a.summary : "what this session did, in a few sentences"};`,
        "- learned: each new thing worth knowing later, one item each (skip what search already finds);",
        "- decisions: each decision taken, with its reason.",
        "If work is left open, call handoff addressed to the Agent Identity or thread that continues it.",
      ].join("\n"),
  },
  {
    name: "review_proposals",
    title: "Review consolidator proposals",
    description: "Go through the consolidator's pending proposals and accept or reject each on its evidence.",
    arguments: [scopeArgument],
    text: (a) =>
      [
        `Call review_proposals with action "list"${inScope(a)}.`,
        "For each proposal, read its memories with get_memories and check the rationale:",
        '- accept (action "accept", id) when the memories really say the same thing or the newer one replaces the older;',
        '- reject (action "reject", id, reason) when they differ in a way that matters, saying how.',
        "A proposal refused as PROPOSAL_STALE changed since it was filed: skip it.",
      ].join("\n"),
  },
];

export function listPrompts() {
  return PROMPTS.map(({ text: _text, ...prompt }) => prompt);
}

export function getPrompt(name: string, args: Record<string, string> = {}) {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt)
    throw new DomainError(
      "INVALID_INPUT",
      `name: no prompt is named "${name}"; /mcp offers ${PROMPTS.map((p) => p.name).join(", ")}.`,
      { field: "name" },
    );
  const known = new Set(prompt.arguments.map((a) => a.name));
  const unknown = Object.keys(args).filter((k) => !known.has(k));
  if (unknown.length)
    throw new DomainError(
      "INVALID_INPUT",
      `arguments: prompt "${name}" takes ${[...known].join(", ")}; not ${unknown.join(", ")}.`,
      { field: "arguments" },
    );
  return {
    description: prompt.description,
    messages: [{ role: "user" as const, content: { type: "text" as const, text: prompt.text(args) } }],
  };
}
