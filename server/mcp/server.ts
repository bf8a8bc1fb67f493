/**
 * The MCP server one /mcp request talks to, built for the Agent Identity behind its token:
 * the built-in tools (server/mcp/tools/registry.ts) and the identity's catalog Tools under
 * their model-facing names, proxied to their Sources; the memory resources and the prompts.
 * Stateless: nothing outlives the request. This file is the only one that knows the MCP
 * SDK's server API: every decision is in the registry, resources.ts, prompts.ts and
 * server/domain.
 */
import { type CallToolResult, ResourceNotFoundError, type Server, type Tool } from "@modelcontextprotocol/server";
import type { Actor } from "../actor";
import { callOfferedTool } from "../domain/agent-tools/call";
import { cancelRequest, requestKey } from "../domain/agent-tools/host-calls";
import type { ProgressUpdate } from "../domain/agent-tools/host-progress";
import { instructionsFor } from "../domain/agent-tools/instructions";
import { listOfferedTools, publishesOutputSchema } from "../domain/agent-tools/list";
import { type ClientOf, requestClient } from "../domain/agent-tools/mcp-client";
import { failedCall, inTextOnly } from "../domain/agent-tools/result";
import {
  getSourcePrompt,
  listSourceSurface,
  PROMPTS,
  parseProxiedUri,
  RESOURCES,
  readSourceResource,
  type SurfaceKind,
  TEMPLATES,
} from "../domain/agent-tools/source-surface";
import type { ClientConfirmation } from "../domain/call-policies/confirmation";
import { observeToolCall } from "../domain/calls/observe";
import { isDomainError } from "../errors";
import { LIMITS } from "../limits";
import { log } from "../log";
import { askInBand, askToConfirm, clientConfirmation, refusedRequestState } from "./confirmation";
import { promptForRevision, toolResultForRevision } from "./downgrade";
import { toMcpError } from "./errors";
import { getPrompt, listPrompts } from "./prompts";
import { RESOURCE_TEMPLATES, readResource } from "./resources";
import { SERVED_REVISIONS } from "./revisions";
import { createTaskResult, registerTaskHandlers, TaskAnswer, TaskServer, taskCapabilities, taskWanted } from "./tasks";
import { type AgentActor, forwardedCall, listedTool, runTool } from "./tools/define";
import { builtInTool, builtInTools } from "./tools/registry";

/**
 * notifications/progress on this request's response stream, when the agent asked with a
 * progressToken (every served revision carries them there: an SSE response, handler.ts).
 */
function progressSender(request: {
  _meta?: { progressToken?: unknown };
  notify: (notification: { method: "notifications/progress"; params: Record<string, unknown> }) => Promise<void>;
}) {
  const token = request._meta?.progressToken;
  if (typeof token !== "string" && typeof token !== "number") return undefined;
  return (update: ProgressUpdate) =>
    request.notify({ method: "notifications/progress", params: { progressToken: token, ...update } });
}

const isNotFound = (error: unknown) => isDomainError(error) && (error as { code: string }).code === "NOT_FOUND";

/**
 * `revision`: what the request speaks (revisions.ts); results are shaped for it (downgrade.ts).
 * `instructions: false` for a request whose answer cannot carry them (not initialize or server/discover).
 * `asksInBand`: a 2025-era tools/call that can put a question to its client on its own stream.
 */
export async function buildMcpServer(
  actor: Actor,
  signal: AbortSignal,
  revision: string,
  options: { instructions: boolean; client?: ClientOf; asksInBand?: boolean } = { instructions: true },
): Promise<Server> {
  // A 2025-era tools/call on a stream whose client declared form elicitation (handler.ts).
  const asksInBand = options.asksInBand === true;
  const agent = actor as AgentActor;
  const client = options.client ?? requestClient(null, null);
  const server = new TaskServer(
    { name: "quartermaster", title: "Quartermaster", version: "1.0.0" },
    {
      supportedProtocolVersions: [...SERVED_REVISIONS],
      capabilities: {
        tools: { listChanged: false },
        resources: { listChanged: false, subscribe: false },
        prompts: { listChanged: false },
        ...taskCapabilities(revision),
      },
      ...(options.instructions ? { instructions: await instructionsFor(agent.identityId) } : {}),
      // A listing is stable within a day (domain/agent-tools/exposure.ts): 2026-07-28 clients may keep it a while.
      cacheHints: { "tools/list": { ttlMs: LIMITS.LISTING_TTL_MS.value } },
    },
  );
  const guarded =
    <A, C, R>(handler: (request: A, ctx: C) => Promise<R>) =>
    async (request: A, ctx: C): Promise<R> => {
      try {
        return await handler(request, ctx);
      } catch (error) {
        if (error instanceof TaskAnswer) throw error;
        throw toMcpError(error);
      }
    };

  server.setRequestHandler(
    "tools/list",
    guarded(async (request) => {
      const page = await listOfferedTools(actor, { cursor: request.params?.cursor });
      // A name given before built-in names were reserved is kept (names are stable); the
      // built-in answers to it, so the catalog Tool cannot be offered under it.
      const shadowed = page.tools.filter((t) => builtInTool(t.name));
      if (shadowed.length) log.warn({ tools: shadowed.map((t) => t.name) }, "catalog Tool shadowed by a built-in");
      const catalog = page.tools.filter((t) => !builtInTool(t.name)) as Tool[];
      // The built-ins lead the first page.
      const builtIns = request.params?.cursor ? [] : (builtInTools.map(listedTool) as Tool[]);
      const tools = [...builtIns, ...catalog];
      return page.nextCursor ? { tools, nextCursor: page.nextCursor } : { tools };
    }),
  );
  server.setRequestHandler(
    "tools/call",
    guarded(async (request, ctx) => {
      const { name, arguments: args } = request.params;
      // call_tool { name, arguments } is that Tool's direct call; only its own bad arguments are its.
      const forwarding = builtInTool(name)?.forward ? builtInTool(name) : undefined;
      const forwarded = forwardedCall(forwarding, { name, arguments: args });
      const call = "result" in forwarded ? { name, arguments: args } : forwarded;
      // Rate limits, the call log, the span and the metrics of every call (domain/calls).
      const observed = (heard?: ClientConfirmation) =>
        observeToolCall(actor, call, async (callId) => {
          if ("result" in forwarded) return forwarded;
          const builtIn = builtInTool(call.name);
          if (builtIn) {
            // What a built-in writes names this call and its client (a memory's provenance);
            // one that writes nothing does not wait for a 2025-era token's client to be looked up.
            const named = builtIn.annotations.readOnlyHint ? null : await client();
            const inCall: AgentActor = { ...agent, call: { id: callId, client: named } };
            return await runTool(builtIn, call.arguments, { actor: inCall, signal, client });
          }
          try {
            return await callOfferedTool(actor, {
              ...call,
              // A cancellation sent on this request's own stream aborts ctx's signal; one sent
              // as a POST of its own (a stateless client's) arrives through requestKey below.
              signal: AbortSignal.any([signal, ctx.mcpReq.signal]),
              requestKey: requestKey(agent, ctx.mcpReq.id),
              // Checked inside the observed call, so a refused requestState is in the call log.
              confirmation: heard ?? (await clientConfirmation(ctx, revision, asksInBand)),
              onProgress: progressSender(ctx.mcpReq),
              task: taskWanted(request as never, ctx, revision),
            });
          } catch (error) {
            // A direct call of an unknown name is a protocol error; through call_tool the name
            // is an argument the model got wrong, answered as a result it can act on.
            if (!forwarding || !isNotFound(error)) throw error;
            return failedCall("NOT_FOUND", (error as Error).message, { field: "name" });
          }
        });
      let answered: Awaited<ReturnType<typeof observed>>;
      try {
        answered = await observed();
        // Under `confirm`, nothing ran. A 2026-07-28 client asks its user and retries; a
        // 2025-era one that can be asked is asked on this request's stream, and the call is
        // judged again, as its own call, with the answer (confirmation.ts, in-band.ts).
        if (answered.confirm && revision === SERVED_REVISIONS[0])
          return (await askToConfirm(answered.confirm, ctx)) as never;
        if (answered.confirm) answered = await observed(await askInBand(answered.confirm, ctx, revision));
      } catch (error) {
        throw refusedRequestState(error) ?? error;
      }
      // The call became a task (started on its Source, or waiting for an approver): its handle is the answer.
      if (answered.task) throw new TaskAnswer(createTaskResult(answered.task, revision));
      // A direct call of a catalog Tool with its own output schema: a client may check our
      // error against that schema (a built-in's, and call_tool's, admit it).
      if (answered.outcome.outcome === "failed" && !builtInTool(name) && (await publishesOutputSchema(actor, name)))
        answered = inTextOnly(answered);
      // Content blocks pass through as the Source sent them (their limits were checked),
      // in what the client's revision has.
      return toolResultForRevision(answered.result as CallToolResult, revision);
    }),
  );
  // An approval's task runs its call once approved, watched like any call (rate limits, call log).
  registerTaskHandlers(server, actor, revision, {
    signal,
    run: ({ approvedDefinition, ...call }) =>
      observeToolCall(actor, call, () => callOfferedTool(actor, { ...call, signal, approvedDefinition })),
  });
  // /mcp keeps no session, so the request a cancellation names may be in flight on any
  // instance: it is found through the database by who asked and its id.
  server.setNotificationHandler("notifications/cancelled", async (notification) => {
    const requestId = notification.params?.requestId;
    if (requestId === undefined) return;
    await cancelRequest(requestKey(agent, requestId)).catch((error: unknown) =>
      log.warn({ err: error }, "an agent's cancellation could not be recorded"),
    );
  });
  // Held Sources' resources, templates and prompts follow the built-ins' (which lead the
  // first page); no memory is enumerated: memories are reached by id.
  const sourcePage = async <K extends "resources" | "resourceTemplates" | "prompts">(
    kind: SurfaceKind & { member: K },
    cursor: string | undefined,
    builtIns: Record<string, unknown>[],
  ) => {
    const page = await listSourceSurface(actor, kind, cursor, signal);
    const items = [...(cursor ? [] : builtIns), ...page.items];
    return { [kind.member]: items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) } as never;
  };
  server.setRequestHandler(
    "resources/list",
    guarded(async (request) =>
      sourcePage(RESOURCES as SurfaceKind & { member: "resources" }, request.params?.cursor, []),
    ),
  );
  server.setRequestHandler(
    "resources/templates/list",
    guarded(async (request) =>
      sourcePage(
        TEMPLATES as SurfaceKind & { member: "resourceTemplates" },
        request.params?.cursor,
        RESOURCE_TEMPLATES,
      ),
    ),
  );
  server.setRequestHandler("resources/read", async (request) => {
    const { uri } = request.params;
    try {
      if (parseProxiedUri(uri)) return (await readSourceResource(actor, uri, signal)) as never;
      return await readResource(actor, uri);
    } catch (error) {
      // The SDK's resource-not-found error, data exactly { uri }: what clients of every
      // revision recognise a miss by. Its code is -32602 (2026-07-28); handler.ts gives
      // 2025-era clients -32002, their revisions' code.
      if (isNotFound(error)) throw new ResourceNotFoundError(uri, `NOT_FOUND: ${(error as Error).message}`);
      throw toMcpError(error);
    }
  });
  server.setRequestHandler(
    "prompts/list",
    guarded(async (request) => {
      const builtIns = listPrompts();
      const page = await sourcePage(PROMPTS as SurfaceKind & { member: "prompts" }, request.params?.cursor, builtIns);
      const taken = new Set(builtIns.map((p) => p.name));
      // A Source's prompt whose namespaced name is a built-in's is answered by the built-in.
      const prompts = (page as { prompts: { name: string }[] }).prompts.filter(
        (p, i) => i < (request.params?.cursor ? 0 : builtIns.length) || !taken.has(p.name),
      );
      return { ...(page as object), prompts } as never;
    }),
  );
  server.setRequestHandler(
    "prompts/get",
    guarded(async (request) => {
      const { name, arguments: args = {} } = request.params;
      const builtIn = listPrompts().some((p) => p.name === name);
      const prompt = (!builtIn && (await getSourcePrompt(actor, name, args, signal))) || getPrompt(name, args);
      return promptForRevision(prompt as ReturnType<typeof getPrompt>, revision);
    }),
  );
  return server;
}
