/**
 * The memory API: scopes and grants, memories, facts, threads, proposals and the
 * consolidator. One line per procedure; access, limits and audit live in the domain
 * (server/domain/memory), where /mcp's memory tools call the same functions.
 */
import { runConsolidator } from "../../domain/memory/consolidator";
import { eraseMemory } from "../../domain/memory/erase";
import { listFacts } from "../../domain/memory/facts";
import { clearMemoryFlag, createMemory, getMemories, getMemory, supersedeMemory } from "../../domain/memory/memories";
import { exportScope, importScope } from "../../domain/memory/portable";
import { acceptProposal, decideProposals, listProposals, rejectProposal } from "../../domain/memory/proposals";
import { deleteRetention, listRetention, previewRetention, saveRetention } from "../../domain/memory/retention";
import {
  ZAcceptProposalInput,
  ZArchiveThreadInput,
  ZCreateMemoryInput,
  ZCreateThreadInput,
  ZDecideManyInput,
  ZGetManyInput,
  ZGrantInput,
  ZListFactsInput,
  ZListMemoriesInput,
  ZListProposalsInput,
  ZListThreadsInput,
  ZMemoryIdInput,
  ZPinInput,
  ZRejectProposalInput,
  ZRenameThreadInput,
  ZRevokeInput,
  ZScopeIdInput,
  ZSearchInput,
  ZSupersedeInput,
  ZThreadIdInput,
  ZThreadMembersInput,
  ZThreadMembersListInput,
} from "../../domain/memory/schemas";
import {
  createScope,
  deleteScope,
  getScope,
  getScopeVersion,
  grantScope,
  listIdentityGrants,
  listScopeGrants,
  listScopes,
  revokeScope,
  updateScope,
} from "../../domain/memory/scopes";
import { listMemories, searchMemories } from "../../domain/memory/search";
import { listSigningKeys, trustSigningKey, untrustSigningKey } from "../../domain/memory/signing-keys";
import {
  addThreadMembers,
  archiveThread,
  createThread,
  deleteThread,
  getThread,
  listThreadMembers,
  listThreads,
  pinThreadMember,
  removeThreadMembers,
  renameThread,
} from "../../domain/memory/threads";
import { procedure, router } from "../init";
import { mutationOf, queryOf } from "../operations";

const GRANTS = ["curator", "operator"] as const;

export const scopesRouter = router({
  list: procedure("viewer").query(({ ctx }) => listScopes(ctx.actor)),
  get: procedure("viewer")
    .input(ZScopeIdInput)
    .query(({ ctx, input }) => getScope(ctx.actor, input)),
  version: procedure("viewer")
    .input(ZScopeIdInput)
    .query(({ ctx, input }) => getScopeVersion(ctx.actor, input)),
  create: mutationOf(createScope),
  update: mutationOf(updateScope),
  delete: mutationOf(deleteScope),
  grants: procedure("viewer")
    .input(ZScopeIdInput)
    .query(({ ctx, input }) => listScopeGrants(ctx.actor, input)),
  identityGrants: queryOf(listIdentityGrants),
  grant: procedure(GRANTS)
    .input(ZGrantInput)
    .mutation(({ ctx, input }) => grantScope(ctx.actor, input)),
  revoke: procedure(GRANTS)
    .input(ZRevokeInput)
    .mutation(({ ctx, input }) => revokeScope(ctx.actor, input)),
  export: procedure("viewer")
    .input(ZScopeIdInput)
    .query(({ ctx, input }) => exportScope(ctx.actor, input)),
  import: mutationOf(importScope),
});

export const signingKeysRouter = router({
  list: queryOf(listSigningKeys),
  trust: mutationOf(trustSigningKey),
  untrust: mutationOf(untrustSigningKey),
});

export const memoriesRouter = router({
  create: procedure("curator")
    .input(ZCreateMemoryInput)
    .mutation(({ ctx, input }) => createMemory(ctx.actor, input)),
  get: procedure("viewer")
    .input(ZMemoryIdInput)
    .query(({ ctx, input }) => getMemory(ctx.actor, input)),
  getMany: procedure("viewer")
    .input(ZGetManyInput)
    .query(({ ctx, input }) => getMemories(ctx.actor, input)),
  search: procedure("viewer")
    .input(ZSearchInput)
    .query(({ ctx, input }) => searchMemories(ctx.actor, input)),
  list: procedure("viewer")
    .input(ZListMemoriesInput)
    .query(({ ctx, input }) => listMemories(ctx.actor, input)),
  supersede: procedure("curator")
    .input(ZSupersedeInput)
    .mutation(({ ctx, input }) => supersedeMemory(ctx.actor, input)),
  erase: mutationOf(eraseMemory),
  clearFlag: mutationOf(clearMemoryFlag),
});

export const factsRouter = router({
  list: procedure("viewer")
    .input(ZListFactsInput)
    .query(({ ctx, input }) => listFacts(ctx.actor, input)),
});

export const threadsRouter = router({
  list: procedure("viewer")
    .input(ZListThreadsInput)
    .query(({ ctx, input }) => listThreads(ctx.actor, input)),
  get: procedure("viewer")
    .input(ZThreadMembersListInput)
    .query(({ ctx, input }) => getThread(ctx.actor, input)),
  members: procedure("viewer")
    .input(ZThreadMembersListInput)
    .query(({ ctx, input }) => listThreadMembers(ctx.actor, input)),
  create: procedure("curator")
    .input(ZCreateThreadInput)
    .mutation(({ ctx, input }) => createThread(ctx.actor, input)),
  rename: procedure("curator")
    .input(ZRenameThreadInput)
    .mutation(({ ctx, input }) => renameThread(ctx.actor, input)),
  archive: procedure("curator")
    .input(ZArchiveThreadInput)
    .mutation(({ ctx, input }) => archiveThread(ctx.actor, input)),
  delete: procedure("curator")
    .input(ZThreadIdInput)
    .mutation(({ ctx, input }) => deleteThread(ctx.actor, input)),
  addMembers: procedure("curator")
    .input(ZThreadMembersInput)
    .mutation(({ ctx, input }) => addThreadMembers(ctx.actor, input)),
  removeMembers: procedure("curator")
    .input(ZThreadMembersInput)
    .mutation(({ ctx, input }) => removeThreadMembers(ctx.actor, input)),
  pin: procedure("curator")
    .input(ZPinInput)
    .mutation(({ ctx, input }) => pinThreadMember(ctx.actor, input)),
});

export const proposalsRouter = router({
  list: procedure("viewer")
    .input(ZListProposalsInput)
    .query(({ ctx, input }) => listProposals(ctx.actor, input)),
  accept: procedure("curator")
    .input(ZAcceptProposalInput)
    .mutation(({ ctx, input }) => acceptProposal(ctx.actor, input)),
  reject: procedure("curator")
    .input(ZRejectProposalInput)
    .mutation(({ ctx, input }) => rejectProposal(ctx.actor, input)),
  decide: procedure("curator")
    .input(ZDecideManyInput)
    .mutation(({ ctx, input }) => decideProposals(ctx.actor, input)),
});

export const retentionRouter = router({
  list: queryOf(listRetention),
  preview: queryOf(previewRetention),
  save: mutationOf(saveRetention),
  delete: mutationOf(deleteRetention),
});

export const consolidatorRouter = router({
  run: procedure("curator")
    .input(ZScopeIdInput)
    .mutation(({ ctx, input }) => runConsolidator(ctx.actor, input)),
});
