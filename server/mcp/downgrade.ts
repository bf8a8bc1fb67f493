/**
 * Results in the shapes of the client's revision. Each revision's content blocks are a
 * closed list, and clients check it: the 1.12 SDK client (2025-03-26) throws on a whole
 * result at `content.1.type: received "resource_link"`. So what a revision lacks is written
 * in what it has — a `resource_link` (since 2025-06-18) becomes a text line with its URI —
 * for built-in and proxied results alike. Fields a revision does not define (structuredContent,
 * outputSchema, title) are left in: its clients ignore them, and the 2025-03-26-era SDK
 * clients read and check structuredContent and outputSchema, which they shipped early.
 */
import { revisionHas } from "./revisions";

const RESOURCE_LINKS_SINCE = "2025-06-18";

type Block = { type?: unknown; [k: string]: unknown };

function linkLine(block: Block): string {
  const label = typeof block.title === "string" && block.title ? block.title : String(block.name ?? block.uri);
  const about = typeof block.description === "string" && block.description ? ` — ${block.description}` : "";
  return `- ${label}: ${String(block.uri)}${about}`;
}

/** `blocks` with each run of resource_link blocks written as one text block, one link a line. */
export function contentForRevision<T>(blocks: T[], revision: string): T[] {
  if (revisionHas(revision, RESOURCE_LINKS_SINCE) || !blocks.some((b) => (b as Block).type === "resource_link"))
    return blocks;
  const out: unknown[] = [];
  let run: Block[] = [];
  const flush = () => {
    if (run.length)
      out.push({ type: "text", text: `Linked resources (read with resources/read):\n${run.map(linkLine).join("\n")}` });
    run = [];
  };
  for (const block of blocks as Block[]) {
    if (block.type === "resource_link") run.push(block);
    else {
      flush();
      out.push(block);
    }
  }
  flush();
  return out as T[];
}

/** A Tool Result in the shapes of `revision`. */
export function toolResultForRevision<R extends { content?: unknown[] }>(result: R, revision: string): R {
  if (!Array.isArray(result.content)) return result;
  const content = contentForRevision(result.content, revision);
  return content === result.content ? result : { ...result, content };
}

/** A prompt's messages (one content block each) in the shapes of `revision`. */
export function promptForRevision<P extends { messages: { content: unknown }[] }>(prompt: P, revision: string): P {
  if (revisionHas(revision, RESOURCE_LINKS_SINCE)) return prompt;
  return {
    ...prompt,
    messages: prompt.messages.map((m) => ({ ...m, content: contentForRevision([m.content], revision)[0] })),
  };
}
