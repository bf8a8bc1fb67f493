import { z } from "zod";
import { acceptProposal, listProposals, rejectProposal } from "../../domain/memory/proposals";
import { ZRejectProposalInput, ZThreadMembersInput, ZThreadName } from "../../domain/memory/schemas";
import {
  addThreadMembers,
  archiveThread,
  createThread,
  deleteThread,
  pinThreadMember,
  removeThreadMembers,
  renameThread,
} from "../../domain/memory/threads";
import { resolveScope, threadIdNamed } from "../../domain/memory/working-scope";
import { DomainError } from "../../errors";
import { scopeArg } from "./common";
import { defineTool } from "./define";

const THREAD_ACTIONS = ["create", "rename", "archive", "delete", "add", "remove", "pin", "unpin"] as const;
const CURATES = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

const need = (field: string, action: string) =>
  new DomainError("INVALID_INPUT", `${field}: required when action is "${action}"`, { field });

export const threads = defineTool({
  name: "threads",
  title: "Curate threads",
  description:
    "Organise memories into named threads (collections on one topic): create, rename, archive or delete a thread; add memories to it or remove them; pin a memory at the top of a thread, or unpin it. A thread's members are readable at qm://thread/{name}.",
  inputSchema: z.object({
    action: z.enum(THREAD_ACTIONS).describe("What to do: create, rename, archive, delete, add, remove, pin or unpin."),
    name: ZThreadName.describe("The thread, by name."),
    newName: ZThreadName.optional().describe("rename: the thread's new name."),
    description: z.string().trim().max(2000).optional().describe("create: what the thread collects."),
    memoryIds: ZThreadMembersInput.shape.memoryIds
      .optional()
      .describe("add, remove, pin, unpin: the memories (ids), at most 500."),
    scope: scopeArg,
  }),
  outputSchema: z.object({
    action: z.enum(THREAD_ACTIONS),
    scope: z.string(),
    thread: z.string(),
    changed: z.number().int().describe("Memories added, removed, pinned or unpinned; 1 for a thread change."),
  }),
  annotations: CURATES,
  errors: ["INVALID_ARGUMENTS", "SCOPE_ACCESS_DENIED", "NOT_FOUND", "CONFLICT"],
  async handler(input, { actor }) {
    const scope = await resolveScope(actor, input.scope, "write");
    const done = (thread: string, changed: number, text: string) => ({
      structured: { action: input.action, scope: scope.name, thread, changed },
      text,
    });
    if (input.action === "create") {
      await createThread(actor, { scopeId: scope.id, name: input.name, description: input.description });
      return done(input.name, 1, `Created thread "${input.name}" in scope "${scope.name}".`);
    }
    const threadId = await threadIdNamed(scope, input.name);
    const ids = input.memoryIds ?? [];
    switch (input.action) {
      case "rename": {
        if (!input.newName) throw need("newName", "rename");
        await renameThread(actor, { threadId, name: input.newName });
        return done(input.newName, 1, `Renamed thread "${input.name}" to "${input.newName}".`);
      }
      case "archive":
        await archiveThread(actor, { threadId, archived: true });
        return done(input.name, 1, `Archived thread "${input.name}"; its memories stay in the scope.`);
      case "delete": {
        const deleted = await deleteThread(actor, { threadId });
        return done(
          input.name,
          1,
          `Deleted thread "${input.name}"; its ${deleted.membersKept} memories stay in the scope.`,
        );
      }
      case "add": {
        if (!ids.length) throw need("memoryIds", "add");
        const added = await addThreadMembers(actor, { threadId, memoryIds: ids });
        return done(
          input.name,
          added.added,
          `Added ${added.added} memories to "${input.name}" (${added.alreadyMembers} were members).`,
        );
      }
      case "remove": {
        if (!ids.length) throw need("memoryIds", "remove");
        const removed = await removeThreadMembers(actor, { threadId, memoryIds: ids });
        return done(input.name, removed.removed, `Removed ${removed.removed} memories from "${input.name}".`);
      }
      default: {
        if (!ids.length) throw need("memoryIds", input.action);
        const pinned = input.action === "pin";
        for (const memoryId of ids) await pinThreadMember(actor, { threadId, memoryId, pinned });
        return done(
          input.name,
          ids.length,
          `${pinned ? "Pinned" : "Unpinned"} ${ids.length} memories in "${input.name}".`,
        );
      }
    }
  },
});

const REVIEW_ACTIONS = ["list", "accept", "reject"] as const;

export const reviewProposals = defineTool({
  name: "review_proposals",
  title: "Review proposals",
  description:
    "Go through the consolidator's suggestions to clean up memory (merge duplicates, supersede outdated memories, discard copies): list those pending with their evidence, then accept one (applied at once, history kept) or reject it with a reason. One whose memories changed since is refused as PROPOSAL_STALE.",
  inputSchema: z.object({
    action: z.enum(REVIEW_ACTIONS).describe("list pending proposals, accept one, or reject one."),
    id: z.string().trim().min(1).max(200).optional().describe("accept, reject: the proposal's id."),
    reason: ZRejectProposalInput.shape.reason.optional().describe("reject: why the proposal is wrong."),
    limit: z.number().int().min(1).max(50).default(10).describe("list: proposals to return (1–50); 10 if omitted."),
    scope: scopeArg,
  }),
  outputSchema: z.object({
    action: z.enum(REVIEW_ACTIONS),
    scope: z.string(),
    total: z.number().int().describe("Pending proposals in the scope."),
    proposals: z.array(
      z.object({
        id: z.string(),
        kind: z.string(),
        rationale: z.string(),
        score: z.number(),
        memoryIds: z.array(z.string()),
        stale: z.boolean(),
      }),
    ),
    decided: z.object({ id: z.string(), status: z.string(), resultMemoryId: z.string().nullable() }).nullable(),
  }),
  annotations: CURATES,
  errors: ["INVALID_ARGUMENTS", "SCOPE_ACCESS_DENIED", "NOT_FOUND", "PROPOSAL_STALE", "CONFLICT"],
  async handler(input, { actor }) {
    const needWrite = input.action !== "list";
    const scope = await resolveScope(actor, input.scope, needWrite ? "write" : "read");
    let decided: { id: string; status: string; resultMemoryId: string | null } | null = null;
    if (input.action === "accept" || input.action === "reject") {
      if (!input.id) throw need("id", input.action);
      if (input.action === "reject" && !input.reason) throw need("reason", "reject");
      const d =
        input.action === "accept"
          ? await acceptProposal(actor, { id: input.id, scopeId: scope.id })
          : await rejectProposal(actor, { id: input.id, reason: input.reason, scopeId: scope.id });
      decided = { id: d.id, status: d.status, resultMemoryId: d.resultMemoryId };
    }
    const listed = await listProposals(actor, { scopeId: scope.id, status: "pending", limit: input.limit });
    const proposals = listed.items.map((p) => ({
      id: p.id,
      kind: p.kind,
      rationale: p.rationale,
      score: p.score,
      memoryIds: p.memoryIds,
      stale: p.stale,
    }));
    const lines = proposals.map((p) => `- [${p.id}] ${p.kind} of ${p.memoryIds.join(", ")}: ${p.rationale}`);
    const text = [
      ...(decided ? [`Proposal ${decided.id} is now ${decided.status}.`] : []),
      listed.total
        ? `${listed.total} proposals pending in scope "${scope.name}":`
        : `No proposals pending in scope "${scope.name}".`,
      ...lines,
    ].join("\n");
    return {
      structured: { action: input.action, scope: scope.name, total: listed.total, proposals, decided },
      text,
    };
  },
});
