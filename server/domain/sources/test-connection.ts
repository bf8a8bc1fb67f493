/**
 * "Test connection": lists the first page of a server's Tools before a Connection is
 * saved, through the catalog's own lister, so the same URL policy (no loopback, private
 * or blocked link-local addresses unless allowed), the same size and time limits and the
 * same failure codes apply. Nothing is stored: no Source, no check, no definitions.
 */

import { isCheckFailure } from "../../errors";
import { evaluateCompatibility } from "../catalog/compatibility";
import { listMcpCatalog } from "../catalog/mcp-lister";
import type { PublishedTool } from "../catalog/validate-tool";
import { operation } from "../operation";
import { loadUrlPolicy } from "./network-policy";
import { ZTestConnectionInput } from "./schemas";
import { sourceNameTaken } from "./sources";
import { checkConnectionUrl } from "./url-policy";

// A page may hold thousands of Tools; the answer names this many, and counts the rest.
const TOOLS_NAMED = 50;

export type TestConnectionResult = (
  | {
      ok: true;
      ms: number;
      /** Tools on the server's first page of tools/list. */
      firstPageTools: number;
      /** Whether the server said there are more pages (a check reads them all). */
      morePages: boolean;
      tools: { name: string; title: string | null; description: string; compatible: boolean }[];
    }
  | { ok: false; ms: number; failure: { code: string; message: string; details: Record<string, unknown> } }
) & {
  /** Why the name given cannot be saved (another Source has it), or null; saving would refuse it. */
  nameTaken: string | null;
};

export const testConnection = operation(
  { role: "operator", input: ZTestConnectionInput },
  async (_actor, input): Promise<TestConnectionResult> => {
    const policy = await loadUrlPolicy();
    const url = checkConnectionUrl(input.url, policy);
    const nameTaken = input.name?.trim() ? await sourceNameTaken(input.name.trim()) : null;
    const started = performance.now();
    const stop = new AbortController();
    let first: PublishedTool[] | null = null;
    const ms = () => Math.round(performance.now() - started);
    try {
      const { tools } = await listMcpCatalog({
        url: url.toString(),
        headers: input.headers ?? {},
        allowLinkLocal: policy.allowLinkLocal,
        signal: stop.signal,
        // Tools only: a test answers whether the Tools can be listed.
        surface: false,
        onPage: (page) => {
          first ??= page;
          // The lister has asked for the next page (if any) before judging this one:
          // stopping here abandons that request, so one page at most is read in full.
          stop.abort();
        },
      });
      // Returned normally: the first page was the only one.
      return { ...result(first ?? tools, false, ms()), nameTaken };
    } catch (error) {
      // Stopped while the next page was on its way: the server has more.
      if (first) return { ...result(first, true, ms()), nameTaken };
      if (!isCheckFailure(error)) throw error;
      return {
        ok: false,
        ms: ms(),
        failure: { code: error.code, message: error.message, details: error.details ?? {} },
        nameTaken,
      };
    }
  },
);

function result(tools: PublishedTool[], morePages: boolean, ms: number) {
  return {
    ok: true as const,
    ms,
    firstPageTools: tools.length,
    morePages,
    tools: tools.slice(0, TOOLS_NAMED).map((t) => ({
      name: t.nativeName,
      title: t.title,
      description: t.description.length > 200 ? `${t.description.slice(0, 200)}…` : t.description,
      compatible: evaluateCompatibility(t.inputSchema).state === "compatible",
    })),
  };
}
