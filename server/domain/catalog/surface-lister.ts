/**
 * A catalog check's second part: after the Tools, the Source's resources, resource templates
 * and prompts, each list paged through its cursors like tools/list and bounded like it
 * (CHECK_SURFACE_PAGES, CHECK_SURFACE_ITEMS, CHECK_SURFACE_BYTES, within the check's wall
 * clock). Only Tools make the catalog, so nothing here fails the check: a list the server
 * does not offer is `not_offered`, one it answers with an error is `failed` with the reason,
 * one that passes a limit is `truncated` after the items that fit.
 */
import { fmt, fmtBytes, utf8Bytes } from "@/universal/format";
import { type CheckFailure, DomainError } from "../../errors";
import { LIMITS } from "../../limits";
import { storableCopy } from "../storable-text";

export type SurfaceKind = "resource" | "template" | "prompt";
export type SurfaceStatus = "listed" | "truncated" | "not_offered" | "failed";

export interface SurfaceItem {
  name: string;
  title: string | null;
  /** A resource's uri or a template's uriTemplate, as the Source names it. */
  uri: string | null;
  description: string;
  mimeType: string | null;
  arguments: { name: string; description?: string; required?: boolean }[] | null;
  /** The item as sent, as JSON text. */
  definition: string;
}

export interface SurfaceList {
  kind: SurfaceKind;
  status: SurfaceStatus;
  pages: number;
  bytes: number;
  items: SurfaceItem[];
  failure?: { code: string; message: string };
}

export const SURFACE_LIMITS = {
  surfacePages: LIMITS.CHECK_SURFACE_PAGES.value,
  surfaceItems: LIMITS.CHECK_SURFACE_ITEMS.value,
  surfaceBytes: LIMITS.CHECK_SURFACE_BYTES.value,
};

const LISTS: {
  kind: SurfaceKind;
  method: string;
  member: string;
  capability: "resources" | "prompts";
  noun: string;
}[] = [
  { kind: "resource", method: "resources/list", member: "resources", capability: "resources", noun: "resources" },
  {
    kind: "template",
    method: "resources/templates/list",
    member: "resourceTemplates",
    capability: "resources",
    noun: "resource templates",
  },
  { kind: "prompt", method: "prompts/list", member: "prompts", capability: "prompts", noun: "prompts" },
];

/** JSON-RPC "method not found": the server has no such list even if it advertised the capability. */
const METHOD_NOT_FOUND = -32601;

const text = (v: unknown) => (typeof v === "string" ? storableCopy(v) : null);

function itemOf(kind: SurfaceKind, raw: unknown, where: string): SurfaceItem {
  if (!raw || typeof raw !== "object" || Array.isArray(raw))
    throw new DomainError("CATALOG_MALFORMED_RESPONSE", `${where} is not an object.`);
  const r = raw as Record<string, unknown>;
  const address = kind === "resource" ? r.uri : kind === "template" ? r.uriTemplate : undefined;
  if (kind !== "prompt" && (typeof address !== "string" || !address))
    throw new DomainError(
      "CATALOG_MALFORMED_RESPONSE",
      `${where} has no ${kind === "resource" ? "uri" : "uriTemplate"} string.`,
    );
  if (kind === "prompt" && (typeof r.name !== "string" || !r.name))
    throw new DomainError("CATALOG_MALFORMED_RESPONSE", `${where} has no name string.`);
  const args = Array.isArray(r.arguments)
    ? r.arguments
        .filter((a): a is Record<string, unknown> => Boolean(a) && typeof a === "object" && typeof a.name === "string")
        .map((a) => ({
          name: storableCopy(a.name as string),
          ...(typeof a.description === "string" ? { description: storableCopy(a.description) } : {}),
          ...(typeof a.required === "boolean" ? { required: a.required } : {}),
        }))
    : null;
  return {
    name: text(r.name) || storableCopy(String(address)),
    title: text(r.title),
    uri: kind === "prompt" ? null : storableCopy(String(address)),
    description: text(r.description) ?? "",
    mimeType: text(r.mimeType),
    arguments: kind === "prompt" ? (args ?? []) : null,
    // JSON.stringify escapes NUL and lone surrogates, so the text is always storable.
    definition: JSON.stringify(raw),
  };
}

export interface SurfaceOptions {
  /** What the server said it offers (`initialize` or `server/discover`). */
  capabilities: Record<string, unknown> | undefined;
  /** One page of a list, as the server sent it. */
  request: (method: string, cursor: string | undefined) => Promise<Record<string, unknown>>;
  /** A failed request as a check failure (timeouts, transport, JSON-RPC errors). */
  failureOf: (error: unknown, where: string) => CheckFailure;
  limits: typeof SURFACE_LIMITS;
}

/** The three lists, one after another so the shared byte bound cuts them in a fixed order. */
export async function listSurface(options: SurfaceOptions): Promise<SurfaceList[]> {
  const { limits } = options;
  const budget = { bytes: 0 };
  const out: SurfaceList[] = [];
  for (const list of LISTS) {
    const result: SurfaceList = { kind: list.kind, status: "listed", pages: 0, bytes: 0, items: [] };
    out.push(result);
    if (!options.capabilities?.[list.capability]) {
      result.status = "not_offered";
      continue;
    }
    const cursors = new Set<string>();
    let cursor: string | undefined;
    try {
      pages: do {
        const page = result.pages + 1;
        let answer: Record<string, unknown>;
        try {
          answer = await options.request(list.method, cursor);
        } catch (error) {
          if ((error as { code?: unknown })?.code === METHOD_NOT_FOUND && page === 1) {
            result.status = "not_offered";
            break;
          }
          throw options.failureOf(error, `while reading ${list.method} page ${page}`);
        }
        const items = answer[list.member];
        if (!Array.isArray(items))
          throw new DomainError(
            "CATALOG_MALFORMED_RESPONSE",
            `Page ${page} of ${list.method}: "${list.member}" is not an array.`,
          );
        result.pages = page;
        for (const [index, raw] of items.entries()) {
          if (result.items.length >= limits.surfaceItems) {
            truncate(
              result,
              "CATALOG_TOO_LARGE",
              `More than ${fmt(limits.surfaceItems)} ${list.noun}: the first ${fmt(limits.surfaceItems)} are recorded (one check records at most ${fmt(limits.surfaceItems)} of each list).`,
            );
            break pages;
          }
          const item = itemOf(list.kind, raw, `Page ${page} of ${list.method}, item ${index + 1},`);
          const bytes = utf8Bytes(item.definition);
          if (budget.bytes + bytes > limits.surfaceBytes) {
            truncate(
              result,
              "CATALOG_TOO_LARGE",
              `The resource, template and prompt definitions passed ${fmtBytes(limits.surfaceBytes)}: ${fmt(result.items.length)} ${list.noun} are recorded (one check records at most ${fmtBytes(limits.surfaceBytes)} of them).`,
            );
            break pages;
          }
          budget.bytes += bytes;
          result.bytes += bytes;
          result.items.push(item);
        }
        const next = answer.nextCursor;
        if (next === undefined || next === null || next === "") break;
        if (typeof next !== "string")
          throw new DomainError(
            "CATALOG_MALFORMED_RESPONSE",
            `Page ${page} of ${list.method}: "nextCursor" is not a string.`,
          );
        if (cursors.has(next))
          throw new DomainError(
            "CATALOG_CURSOR_LOOP",
            `Page ${page} of ${list.method} returned a cursor the server had already returned; the listing would never end.`,
          );
        if (page >= limits.surfacePages) {
          truncate(
            result,
            "CATALOG_TOO_MANY_PAGES",
            `The ${list.noun} need more than ${fmt(limits.surfacePages)} pages: the first ${fmt(limits.surfacePages)} are recorded (one check reads at most ${fmt(limits.surfacePages)} pages of each list).`,
          );
          break;
        }
        cursors.add(next);
        cursor = next;
      } while (cursor !== undefined);
    } catch (error) {
      const failure = error instanceof DomainError ? error : options.failureOf(error, `while reading ${list.method}`);
      budget.bytes -= result.bytes;
      Object.assign(result, {
        status: "failed",
        bytes: 0,
        items: [],
        failure: { code: failure.code, message: failure.message },
      });
    }
  }
  return out;
}

function truncate(result: SurfaceList, code: string, message: string) {
  result.status = "truncated";
  result.failure = { code, message };
}
