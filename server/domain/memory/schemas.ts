/**
 * Input schemas of the memory domain, shared by the tRPC routers and the /mcp built-in
 * tools (which derive theirs from these, naming a scope instead of passing its id).
 */
import { z } from "zod";
import { LIMITS } from "../../limits";

const id = (what: string) => z.string().trim().min(1, `${what} is required`).max(200);
const chars = (name: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `${name} is required`)
    .refine((s) => [...s].length <= max, `${name} may be at most ${max} characters`);

export const MEMORY_KINDS = ["note", "decision", "fact", "handoff", "briefing", "debrief"] as const;
export const ZMemoryKind = z.enum(MEMORY_KINDS);
export type TMemoryKind = z.infer<typeof ZMemoryKind>;

export const ZScopeAccess = z.enum(["read", "write"]);
export type TScopeAccess = z.infer<typeof ZScopeAccess>;

export const ZScopeName = chars("name", LIMITS.SCOPE_NAME_CHARS.value).refine(
  (s) => /^[\p{L}\p{N}][\p{L}\p{N} ._/-]*$/u.test(s),
  "name may hold letters, digits, spaces and . _ / - (starting with a letter or digit)",
);

export const ZCreateScopeInput = z.object({
  name: ZScopeName,
  description: z.string().trim().max(2000).default(""),
  consolidateEverySeconds: z
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .optional(),
});
/** Whether an agent's write is seen at once (direct) or held for a curator's admission (review). */
export const ZAgentWrites = z.enum(["direct", "review"]);
export type TAgentWrites = z.infer<typeof ZAgentWrites>;

export const ZUpdateScopeInput = z.object({
  scopeId: id("scopeId"),
  agentWrites: ZAgentWrites.optional(),
  name: ZScopeName.optional(),
  description: z.string().trim().max(2000).optional(),
  consolidateEverySeconds: z
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .optional(),
});
export const ZScopeIdInput = z.object({ scopeId: id("scopeId") });

/** A retention rule: memories of `kind` in the scope are erased once older than `days`. */
export const ZRetentionRuleInput = z.object({
  scopeId: id("scopeId"),
  kind: ZMemoryKind,
  days: z
    .number()
    .int("days must be a whole number")
    .min(1, "days must be at least 1")
    .max(LIMITS.RETENTION_DAYS_MAX.value, `days may be at most ${LIMITS.RETENTION_DAYS_MAX.value}`),
});
/** Saving needs the digest of the preview the curator saw: what it removes is what was shown. */
export const ZSaveRetentionRuleInput = ZRetentionRuleInput.extend({
  previewDigest: z.string().trim().min(1, "previewDigest is required: preview the rule first").max(128),
});
export const ZRetentionRuleIdInput = z.object({ scopeId: id("scopeId"), kind: ZMemoryKind });
export const ZGrantInput = z.object({ scopeId: id("scopeId"), identityId: id("identityId"), access: ZScopeAccess });
export const ZRevokeInput = z.object({ scopeId: id("scopeId"), identityId: id("identityId") });
export const ZIdentityGrantsInput = z.object({ identityId: id("identityId") });

export const ZTag = chars("tag", LIMITS.MEMORY_TAG_CHARS.value).transform((t) => t.toLowerCase());
export const ZTags = z.array(ZTag).max(LIMITS.MEMORY_TAGS.value, `at most ${LIMITS.MEMORY_TAGS.value} tags`);

export const ZFactInput = z.object({
  subject: chars("subject", LIMITS.FACT_TERM_CHARS.value),
  predicate: chars("predicate", LIMITS.FACT_TERM_CHARS.value),
  value: chars("value", LIMITS.FACT_VALUE_CHARS.value),
  /** When the value took effect; the memory's occurredAt when omitted. */
  validFrom: z.coerce.date().optional(),
});
export type TFactInput = z.input<typeof ZFactInput>;
export type TFact = z.output<typeof ZFactInput>;

/**
 * A memory body: Markdown. Its size is checked by the domain (MEMORY_TOO_LARGE, naming the
 * limit and the measured bytes) rather than here, so the refusal carries its own code.
 */
export const ZBody = z.string().refine((s) => s.trim().length > 0, "body must not be empty");

export const ZCreateMemoryInput = z.object({
  scopeId: id("scopeId"),
  body: ZBody,
  kind: ZMemoryKind.default("note"),
  tags: ZTags.default([]),
  /** When it happened; now when omitted. */
  occurredAt: z.coerce.date().optional(),
  /** The memory this one corrects or replaces (same scope). */
  supersedes: id("supersedes").optional(),
  /** Threads (by name, in the same scope) to add the new memory to; a missing one is created. */
  threads: z.array(chars("thread", LIMITS.THREAD_NAME_CHARS.value)).max(16).default([]),
  facts: z.array(ZFactInput).max(LIMITS.MEMORY_FACTS.value).default([]),
});
export type TCreateMemoryInput = z.input<typeof ZCreateMemoryInput>;

export const ZSupersedeInput = ZCreateMemoryInput.omit({ supersedes: true, scopeId: true }).extend({
  memoryId: id("memoryId"),
});
export const ZMemoryIdInput = z.object({ id: id("id") });
export const ZGetManyInput = z.object({
  ids: z
    .array(id("id"))
    .min(1, "ids must name at least one memory")
    .max(LIMITS.GET_MANY_MEMORIES.value, `ids may name at most ${LIMITS.GET_MANY_MEMORIES.value} memories`),
});
export const ZEraseInput = z.object({
  id: id("id"),
  reason: z.string().trim().min(3, "reason must say why (e.g. the request it answers)").max(1000),
});

/** How a memory's write reached Quartermaster (provenance.ts); null on memories written before it was recorded. */
export const WRITTEN_VIA = ["mcp", "console", "api", "system"] as const;

/**
 * Where a memory came from (provenance.ts), as filters of the console's list and tRPC's
 * search: `writtenVia: "unknown"` finds memories written before provenance was recorded.
 */
const provenanceFilters = {
  writtenVia: z.enum([...WRITTEN_VIA, "unknown"]).optional(),
  /** The person, API key or Agent Identity that wrote it. */
  authorId: z.string().trim().min(1).max(200).optional(),
  /** The agent token (or oauth:<grant>), api_key:<id> or session:<id> behind the write. */
  authorTokenId: z.string().trim().min(1).max(200).optional(),
  /** The call log id of the Tool Call that wrote it. */
  callId: z.string().trim().min(1).max(200).optional(),
  /** The MCP client's name, exactly as it introduced itself. */
  clientName: z.string().trim().min(1).max(200).optional(),
};

export const ZSearchInput = z
  .object({
    ...provenanceFilters,
    scopeId: id("scopeId"),
    /** Words, a question or a phrase; empty lists the newest memories matching the filters. */
    query: z
      .string()
      .max(LIMITS.SEARCH_QUERY_CHARS.value, `query may be at most ${LIMITS.SEARCH_QUERY_CHARS.value} characters`)
      .default(""),
    threadId: id("threadId").optional(),
    kinds: z.array(ZMemoryKind).max(MEMORY_KINDS.length).optional(),
    /** Every tag listed must be on a hit. */
    tags: ZTags.optional(),
    /** occurredAt range, inclusive of from, exclusive of to. */
    from: z.coerce.date().optional(),
    to: z.coerce.date().optional(),
    includeSuperseded: z.boolean().default(false),
    limit: z.number().int().min(1).max(LIMITS.SEARCH_RESULTS.value).default(10),
    /** How much of each body to return; longer bodies are cut and marked truncated. */
    bodyChars: z.number().int().min(0).max(LIMITS.SEARCH_BODY_CHARS.value).default(500),
    offset: z.number().int().min(0).max(1_000_000).default(0),
    /** An offset cursor (a previous answer's nextCursor); takes the place of offset. */
    cursor: z.string().max(20).optional(),
  })
  .refine((v) => !v.from || !v.to || v.from < v.to, { message: "from must be before to", path: ["from"] });
export type TSearchInput = z.input<typeof ZSearchInput>;

/**
 * The console's list of a scope's memories (memories.list): the search's filters, paged by
 * offset cursor in blocks as long as a list page (the console asks for 200 at a time).
 */
export const ZListMemoriesInput = z
  .object({
    scopeId: id("scopeId"),
    query: z
      .string()
      .max(LIMITS.SEARCH_QUERY_CHARS.value, `query may be at most ${LIMITS.SEARCH_QUERY_CHARS.value} characters`)
      .default(""),
    threadId: id("threadId").optional(),
    kinds: z.array(ZMemoryKind).max(MEMORY_KINDS.length).optional(),
    tags: ZTags.optional(),
    from: z.coerce.date().optional(),
    to: z.coerce.date().optional(),
    includeSuperseded: z.boolean().default(false),
    /** Curators' review: only the memories screening flagged (true) or only the others (false). */
    flagged: z.boolean().optional(),
    ...provenanceFilters,
    cursor: z.string().max(20).optional(),
    limit: z.number().int().min(1).max(LIMITS.PAGE_SIZE_MAX.value).default(200),
  })
  .refine((v) => !v.from || !v.to || v.from < v.to, { message: "from must be before to", path: ["from"] });
export type TListMemoriesInput = z.input<typeof ZListMemoriesInput>;

export const ZListFactsInput = z
  .object({
    scopeId: id("scopeId"),
    subject: z.string().trim().max(LIMITS.FACT_TERM_CHARS.value).optional(),
    predicate: z.string().trim().max(LIMITS.FACT_TERM_CHARS.value).optional(),
    /** The facts in force at this time; now when omitted. Ignored when a range is given. */
    asOf: z.coerce.date().optional(),
    /** Every value in force at some time within the range, oldest first. */
    range: z
      .object({ from: z.coerce.date().optional(), to: z.coerce.date().optional() })
      .refine((r) => !r.from || !r.to || r.from < r.to, { message: "from must be before to", path: ["from"] })
      .optional(),
    limit: z.number().int().min(1).max(LIMITS.PAGE_SIZE_MAX.value).default(100),
    cursor: z.string().max(20).optional(),
  })
  .strict();
export type TListFactsInput = z.input<typeof ZListFactsInput>;

export const ZThreadName = chars("name", LIMITS.THREAD_NAME_CHARS.value);
export const ZCreateThreadInput = z.object({
  scopeId: id("scopeId"),
  name: ZThreadName,
  description: z.string().trim().max(2000).default(""),
});
export const ZThreadIdInput = z.object({ threadId: id("threadId") });
export const ZRenameThreadInput = z.object({ threadId: id("threadId"), name: ZThreadName });
export const ZArchiveThreadInput = z.object({ threadId: id("threadId"), archived: z.boolean().default(true) });
export const ZThreadMembersInput = z.object({
  threadId: id("threadId"),
  memoryIds: z.array(id("memoryId")).min(1).max(500),
});
export const ZPinInput = z.object({ threadId: id("threadId"), memoryId: id("memoryId"), pinned: z.boolean() });
export const ZListThreadsInput = z.object({
  scopeId: id("scopeId"),
  search: z.string().trim().max(200).optional(),
  archived: z.enum(["active", "archived", "all"]).default("active"),
  cursor: z.string().max(20).optional(),
  limit: z.number().int().min(1).max(LIMITS.PAGE_SIZE_MAX.value).default(100),
});
export const ZThreadMembersListInput = z.object({
  threadId: id("threadId"),
  cursor: z.string().max(20).optional(),
  limit: z.number().int().min(1).max(LIMITS.PAGE_SIZE_MAX.value).default(200),
});

export const ZListProposalsInput = z.object({
  scopeId: id("scopeId"),
  status: z.enum(["pending", "accepted", "rejected", "stale", "all"]).default("pending"),
  kind: z.enum(["merge", "supersede", "discard", "admit"]).optional(),
  cursor: z.string().max(20).optional(),
  limit: z.number().int().min(1).max(LIMITS.PAGE_SIZE_MAX.value).default(50),
});
// scopeId, when given, is the scope the decision is made in: a proposal of any other scope is not found.
export const ZAcceptProposalInput = z.object({ id: id("id"), scopeId: id("scopeId").optional() });
export const ZRejectProposalInput = z.object({
  id: id("id"),
  scopeId: id("scopeId").optional(),
  reason: z.string().trim().min(3, "reason must say why the proposal is wrong").max(1000),
});
export const ZDecideManyInput = z.object({
  ids: z.array(id("id")).min(1).max(200),
  decision: z.enum(["accept", "reject"]),
  reason: z.string().trim().max(1000).optional(),
});

export const ZImportInput = z.object({
  jsonl: z.string().min(1, "jsonl must hold an exported scope"),
  /** An unsigned file is refused unless the importer says it trusts it anyway. */
  acceptUnsigned: z.boolean().default(false),
});

// ── Agents' session tools (briefing, debrief, handoff), shared with /mcp ──

/** The fields of a handoff; ZHandoffInput adds the rule that exactly one addressee is named. */
export const ZHandoffFields = z.object({
  scopeId: id("scopeId"),
  body: ZBody,
  /** The Agent Identity (by name) whose next briefing returns it. */
  toIdentity: z.string().trim().min(1).max(200).optional(),
  /** Or the thread (by name; created if missing) whose next briefing returns it. */
  toThread: ZThreadName.optional(),
  tags: ZTags.default([]),
  threads: z.array(ZThreadName).max(16).default([]),
});
export const ZHandoffInput = ZHandoffFields.refine((v) => (v.toIdentity ? 1 : 0) + (v.toThread ? 1 : 0) === 1, {
  message: "name exactly one addressee: toIdentity or toThread",
  path: ["toIdentity"],
});

export const ZBriefingInput = z.object({
  scopeId: id("scopeId"),
  /** A thread to brief on: its pinned memories and the handoffs addressed to it. */
  thread: ZThreadName.optional(),
});

const debriefItems = (what: string) =>
  z
    .array(ZBody)
    .max(LIMITS.DEBRIEF_ITEMS.value, `${what} may hold at most ${LIMITS.DEBRIEF_ITEMS.value} items`)
    .default([]);
export const ZDebriefInput = z.object({
  scopeId: id("scopeId"),
  /** What the session did: stored as one memory of kind "debrief". */
  summary: ZBody,
  /** What it learned, each stored as a note. */
  learned: debriefItems("learned"),
  /** What it decided, each stored as a decision. */
  decisions: debriefItems("decisions"),
  /** A thread every memory of the debrief joins (created if missing). */
  thread: ZThreadName.optional(),
  tags: ZTags.default([]),
});
