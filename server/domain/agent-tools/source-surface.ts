/**
 * A held Source's resources, resource templates and prompts, proxied at /mcp as its Tools
 * are: only MCP Connections the identity is assigned (and not paused) are reached, over the
 * same pooled sessions, network policy and remote-response limit as Tool Calls.
 *
 * Resource URIs are mapped so two Sources never clash: `qm://source/<source id>/<the
 * Source's own URI>`, mapped back on the way in (a template keeps its expressions, since the
 * prefix is a literal). Prompts are namespaced like Tools: `<source>_<prompt>`. Lists page
 * through one Source at a time, each page at most MCP_SOURCE_LIST_PAGE items.
 */
import { ProtocolError } from "@modelcontextprotocol/client";
import type { Actor } from "../../actor";
import { getDb } from "../../db";
import { DomainError, isToolCallFailure } from "../../errors";
import { LIMITS } from "../../limits";
import { log } from "../../log";
import { observeSourceRequest } from "../calls/observe";
import { AS_SENT } from "../catalog/catalog-transport";
import { withSourceSession } from "../catalog/source-sessions";
import { openHeaders } from "../sources/headers";
import { loadUrlPolicy } from "../sources/network-policy";
import { servedIdentity } from "./identity";
import { promptPrefixes } from "./prompt-prefix";
import { sourceMessage } from "./remote-call";
import { parseProxiedUri, proxiedPromptName, proxiedUri } from "./surface-names";

export { parseProxiedUri, proxiedPromptName, proxiedUri, SOURCE_URI_PREFIX } from "./surface-names";

interface SurfaceSource {
  id: string;
  name: string;
  url: string;
  encryptedHeaders: string | null;
  protocolVersion: string | null;
  promptPrefix: string | null;
}

/** The identity's assigned, unpaused MCP Connections, in name order. */
async function heldSources(actor: Actor): Promise<SurfaceSource[]> {
  const identity = await servedIdentity(actor);
  const db = await getDb();
  const rows = await db.source.findMany({
    where: {
      kind: "mcp_connection",
      pausedAt: null,
      url: { not: null },
      assignments: { some: { identityId: identity.id } },
    },
    orderBy: { name: "asc" },
    select: {
      id: true,
      name: true,
      url: true,
      encryptedHeaders: true,
      protocolVersion: true,
      promptPrefix: true,
    },
  });
  return rows as SurfaceSource[];
}

/** JSON-RPC codes a Source answers a request it has no such thing for with. */
const NOT_FOUND_CODES = new Set([-32002, -32602]);
const METHOD_NOT_FOUND = -32601;

async function ask(source: SurfaceSource, method: string, params: Record<string, unknown>, signal?: AbortSignal) {
  const { allowLinkLocal } = await loadUrlPolicy();
  const timeoutMs = LIMITS.TOOL_CALL_MS.value;
  return withSourceSession(
    {
      sourceId: source.id,
      url: source.url,
      headers: openHeaders(source),
      allowLinkLocal,
      protocolVersion: source.protocolVersion,
      responseBytes: LIMITS.REMOTE_RESPONSE_BYTES.value,
    },
    (client) => client.request({ method, params } as never, AS_SENT, { signal, timeout: timeoutMs }),
    { timeoutMs },
  );
}

type Item = Record<string, unknown>;
export interface SurfaceKind {
  method: "resources/list" | "resources/templates/list" | "prompts/list";
  member: "resources" | "resourceTemplates" | "prompts";
}
export const RESOURCES: SurfaceKind = { method: "resources/list", member: "resources" };
export const TEMPLATES: SurfaceKind = { method: "resources/templates/list", member: "resourceTemplates" };
export const PROMPTS: SurfaceKind = { method: "prompts/list", member: "prompts" };

/** Where a list stands: the Source, the Source's own cursor, and how far into its page. */
interface Position {
  s: string;
  c?: string;
  o?: number;
}
const encode = (p: Position) => Buffer.from(JSON.stringify(p)).toString("base64url");
function decode(cursor: string): Position {
  try {
    const p = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Position;
    if (typeof p.s === "string") return p;
  } catch {}
  throw new DomainError("INVALID_INPUT", "cursor: not a cursor this list gave; start again without one.", {
    field: "cursor",
  });
}

function mapped(kind: SurfaceKind, source: SurfaceSource, item: Item): Item {
  if (kind === RESOURCES) return { ...item, uri: proxiedUri(source.id, String(item.uri)) };
  if (kind === TEMPLATES) return { ...item, uriTemplate: proxiedUri(source.id, String(item.uriTemplate)) };
  return { ...item, name: proxiedPromptName(source, String(item.name)) };
}

/**
 * One page of `kind` over the held Sources. A Source that cannot be reached, or has no such
 * list, gives nothing rather than failing the agent's whole list.
 */
export async function listSourceSurface(
  actor: Actor,
  kind: SurfaceKind,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<{ items: Item[]; nextCursor?: string }> {
  const held = await heldSources(actor);
  const sources = kind === PROMPTS ? await promptPrefixes(held) : held;
  let at: Position | undefined = cursor ? decode(cursor) : sources[0] ? { s: sources[0].id } : undefined;
  const page = LIMITS.MCP_SOURCE_LIST_PAGE.value;
  while (at) {
    const index = sources.findIndex((s) => s.id === at?.s);
    // A Source unassigned between pages: its part of the list is over.
    if (index < 0) return { items: [] };
    const source = sources[index] as SurfaceSource;
    const next: Position | undefined = sources[index + 1] ? { s: (sources[index + 1] as SurfaceSource).id } : undefined;
    let answer: Record<string, unknown>;
    try {
      answer = await ask(source, kind.method, at.c ? { cursor: at.c } : {}, signal);
    } catch (error) {
      if (!(error instanceof ProtocolError && error.code === METHOD_NOT_FOUND))
        log.warn({ err: error, sourceId: source.id, method: kind.method }, "a held Source's list could not be read");
      at = next;
      continue;
    }
    const all = Array.isArray(answer[kind.member]) ? (answer[kind.member] as Item[]) : [];
    const from = at.o ?? 0;
    const items = all.slice(from, from + page).map((item) => mapped(kind, source, item));
    const sourceCursor = typeof answer.nextCursor === "string" ? answer.nextCursor : undefined;
    const after: Position | undefined =
      from + page < all.length
        ? { s: source.id, c: at.c, o: from + page }
        : sourceCursor
          ? { s: source.id, c: sourceCursor }
          : next;
    if (items.length || !after) return after ? { items, nextCursor: encode(after) } : { items };
    at = after;
  }
  return { items: [] };
}

function sourceFailure(error: unknown, what: string): never {
  if (error instanceof ProtocolError) {
    if (NOT_FOUND_CODES.has(error.code)) throw new DomainError("NOT_FOUND", `${what}: ${sourceMessage(error.message)}`);
    throw new DomainError(
      "SOURCE_CALL_ERROR",
      `The Source refused it (JSON-RPC ${error.code}): ${sourceMessage(error.message).slice(0, 500)}`,
      { jsonRpcCode: error.code },
    );
  }
  if (isToolCallFailure(error)) throw error;
  throw new DomainError("SOURCE_UNREACHABLE", `The Source could not be reached: ${(error as Error).message}`);
}

/** Content and resource contents with the Source's URIs in their proxied form. */
export function withProxiedUris<T>(sourceId: string, blocks: T[]): T[] {
  return blocks.map((block) => {
    const b = block as Item;
    if (b.type === "resource_link" && typeof b.uri === "string") return { ...b, uri: proxiedUri(sourceId, b.uri) } as T;
    if (b.type === "resource" && typeof (b.resource as Item | undefined)?.uri === "string")
      return {
        ...b,
        resource: { ...(b.resource as Item), uri: proxiedUri(sourceId, (b.resource as Item).uri as string) },
      } as T;
    if (b.type === undefined && typeof b.uri === "string") return { ...b, uri: proxiedUri(sourceId, b.uri) } as T;
    return block;
  });
}

/**
 * resources/read of a proxied URI, on its Source, if the identity holds it; in the call
 * log, traces and rate limits like a Tool Call.
 */
export function readSourceResource(actor: Actor, uri: string, signal?: AbortSignal) {
  return observeSourceRequest(actor, { kind: "resource", name: uri }, (about) =>
    readOnSource(actor, uri, about, signal),
  );
}

async function readOnSource(
  actor: Actor,
  uri: string,
  about: (source: { id: string; name: string; nativeName: string }) => void,
  signal?: AbortSignal,
) {
  const parsed = parseProxiedUri(uri);
  const source = parsed && (await heldSources(actor)).find((s) => s.id === parsed.sourceId);
  if (!parsed || !source)
    throw new DomainError("NOT_FOUND", `No resource at ${uri}: it is not of a Source this Agent Identity holds.`);
  about({ id: source.id, name: source.name, nativeName: parsed.uri });
  let answer: Record<string, unknown>;
  try {
    answer = await ask(source, "resources/read", { uri: parsed.uri }, signal);
  } catch (error) {
    sourceFailure(error, `No resource at ${uri} on Source "${source.name}"`);
  }
  const contents = Array.isArray(answer.contents) ? (answer.contents as Item[]) : [];
  return { ...answer, contents: withProxiedUris(source.id, contents) };
}

type SourcePrompt = { messages: { role: string; content: unknown }[] };

/**
 * prompts/get of a namespaced prompt, on its Source, if the identity holds it; null when no
 * Source's. Logged, traced and rate limited like a Tool Call.
 */
export async function getSourcePrompt(
  actor: Actor,
  name: string,
  args: Record<string, string>,
  signal?: AbortSignal,
): Promise<SourcePrompt | null> {
  const sources = await promptPrefixes(await heldSources(actor));
  const candidates = sources
    .filter((s) => name.startsWith(`${s.promptPrefix}_`))
    .sort((a, b) => b.promptPrefix.length - a.promptPrefix.length);
  if (!candidates.length) return null;
  const source = await promptOwner(candidates, name);
  const nativeName = name.slice(source.promptPrefix.length + 1);
  return observeSourceRequest(actor, { kind: "prompt", name, arguments: args }, (about) => {
    about({ id: source.id, name: source.name, nativeName });
    return getOnSource(source, name, nativeName, args, signal);
  });
}

/**
 * Which of the Sources whose prefixes `name` starts with has the prompt. Prefixes may nest
 * ("docs", "docs_server"): "docs_server_status" is docs_server's "status" or docs's
 * "server_status". The Source whose last catalog check recorded that prompt wins; without
 * such a record, the longest prefix ("ops" never takes "ops_tools"'s prompts).
 */
async function promptOwner<S extends SurfaceSource & { promptPrefix: string }>(candidates: S[], name: string) {
  const longest = candidates[0] as S;
  if (candidates.length === 1) return longest;
  const db = await getDb();
  const recorded = await db.sourceSurfaceItem.findMany({
    where: {
      kind: "prompt",
      OR: candidates.map((c) => ({ sourceId: c.id, name: name.slice(c.promptPrefix.length + 1) })),
    },
    select: { sourceId: true },
  });
  return candidates.find((c) => recorded.some((r) => r.sourceId === c.id)) ?? longest;
}

async function getOnSource(
  source: SurfaceSource,
  name: string,
  nativeName: string,
  args: Record<string, string>,
  signal?: AbortSignal,
): Promise<SourcePrompt> {
  let answer: Record<string, unknown>;
  try {
    answer = await ask(source, "prompts/get", { name: nativeName, arguments: args }, signal);
  } catch (error) {
    sourceFailure(error, `No prompt named "${name}" on Source "${source.name}"`);
  }
  const messages = (Array.isArray(answer.messages) ? answer.messages : []) as { role: string; content: unknown }[];
  return {
    ...answer,
    messages: messages.map((m) => ({ ...m, content: withProxiedUris(source.id, [m.content])[0] })),
  };
}
