/**
 * A scope as a file: GET /api/v1/scopes/{id}/export streams its JSON Lines (however large
 * the scope), POST /api/v1/scopes/import takes a file up to the import limit, past the tRPC
 * body bound. Same callers as tRPC (a console session or an API key), same domain functions.
 * Exports end with the installation's signature line; an import is checked against it, and
 * an unsigned file is taken only with ?acceptUnsigned=true.
 */
import type { Actor } from "../actor";
import { requireScope } from "../domain/memory/access";
import { exportLines, importScope } from "../domain/memory/portable";
import { log } from "../log";
import { createContext } from "../trpc/context";
import { crossSiteWrite } from "../trpc/handler";
import { problem, problemOf } from "./problem";

async function caller(request: Request): Promise<Actor | Response> {
  const context = await createContext(request.headers);
  if (!context.actor)
    return problem("UNAUTHENTICATED", context.authProblem ?? "Sign in, or send Authorization: Bearer <API key>.");
  return context.actor;
}

function failure(error: unknown): Response {
  const refusal = problemOf(error);
  if (refusal) return refusal;
  log.error({ err: error }, "scope file request failed");
  return problem("INTERNAL", "Internal error. The server log has details under this request's id.");
}

export async function handleScopeExport(request: Request, scopeId: string): Promise<Response> {
  const actor = await caller(request);
  if (actor instanceof Response) return actor;
  let name: string;
  try {
    name = (await requireScope(actor, scopeId, "read")).name;
  } catch (error) {
    return failure(error);
  }
  const lines = exportLines(scopeId);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(`${next.value}\n`));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  const file = `${name.replace(/[^\w.-]+/g, "-")}.jsonl`;
  return new Response(body, {
    headers: {
      "content-type": "application/jsonl; charset=utf-8",
      "content-disposition": `attachment; filename="${file}"`,
    },
  });
}

export async function handleScopeImport(request: Request): Promise<Response> {
  if (crossSiteWrite(request))
    return problem("FORBIDDEN", "Cross-site request refused: the Origin does not match this console.");
  const actor = await caller(request);
  if (actor instanceof Response) return actor;
  try {
    // An unsigned file only when the importer says so, as on tRPC (scope-signature.ts).
    const acceptUnsigned = new URL(request.url).searchParams.get("acceptUnsigned") === "true";
    return Response.json(await importScope(actor, { jsonl: await request.text(), acceptUnsigned }));
  } catch (error) {
    return failure(error);
  }
}
