import { Callout } from "@/components/ui/callout";
import { JsonBlock } from "@/components/ui/json-block";

type Block = Record<string, unknown> & { type?: unknown };

const isSafeLink = (uri: unknown): uri is string => typeof uri === "string" && /^https?:\/\//i.test(uri);
const str = (v: unknown) => (typeof v === "string" ? v : "");

/**
 * A Tool Result's content blocks as a person reads them: text as text, images and audio
 * inline (from their base64 data, which the page's policy allows as data: URLs), resource
 * links and embedded resources by URI, then the structured content. Unknown block types
 * are shown as JSON, never dropped.
 */
export function ResultBlocks({
  result,
}: {
  result: { content: unknown[]; structuredContent?: Record<string, unknown>; isError?: boolean };
}) {
  return (
    <div className="space-y-3" data-testid="result-blocks">
      {result.isError && (
        <Callout tone="danger" title="The Tool Result is an error (isError)">
          The call reached the Tool (or Quartermaster refused it on the Source’s behalf); the text below says why.
        </Callout>
      )}
      {result.content.map((raw, i) => {
        const block = (raw && typeof raw === "object" ? raw : { type: "unknown", value: raw }) as Block;
        // Content blocks have no ids; their position is what tells them apart.
        const key = `${i}-${String(block.type)}`;
        return (
          <div key={key} className="rounded-md border border-border" data-block={String(block.type)}>
            <p className="border-b border-border bg-surface-2 px-3 py-1 text-xs text-muted">
              Block {i + 1} · {String(block.type)}
            </p>
            <div className="p-3 text-sm">
              <BlockBody block={block} />
            </div>
          </div>
        );
      })}
      {result.content.length === 0 && <p className="text-sm text-muted">No content blocks.</p>}
      {result.structuredContent && (
        <JsonBlock value={result.structuredContent} label="structured content" note="Structured content" />
      )}
    </div>
  );
}

function BlockBody({ block }: { block: Block }) {
  switch (block.type) {
    case "text":
      return <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{str(block.text)}</p>;
    case "image":
      return (
        // biome-ignore lint/performance/noImgElement: a Tool's image arrives as base64 data, not a file to optimise
        <img
          src={`data:${str(block.mimeType) || "image/png"};base64,${str(block.data)}`}
          alt={`Returned by the Tool (${str(block.mimeType) || "unknown type"})`}
          className="max-h-80 max-w-full rounded border border-border"
        />
      );
    case "audio":
      return (
        // biome-ignore lint/a11y/useMediaCaption: a Tool's audio comes with no captions to give
        <audio controls src={`data:${str(block.mimeType) || "audio/wav"};base64,${str(block.data)}`} />
      );
    case "resource_link":
      return (
        <p className="[overflow-wrap:anywhere]">
          <span className="font-medium">{str(block.name) || str(block.title) || "Resource"}</span>{" "}
          {isSafeLink(block.uri) ? (
            <a href={block.uri} target="_blank" rel="noopener noreferrer" className="text-accent underline">
              {block.uri}
            </a>
          ) : (
            <code className="font-mono text-xs">{str(block.uri)}</code>
          )}
          {str(block.description) && <span className="block text-muted">{str(block.description)}</span>}
        </p>
      );
    case "resource": {
      const resource = (block.resource ?? {}) as Record<string, unknown>;
      return (
        <div className="space-y-1">
          <code className="block font-mono text-xs [overflow-wrap:anywhere]">{str(resource.uri)}</code>
          {typeof resource.text === "string" ? (
            <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{resource.text}</p>
          ) : (
            <p className="text-muted">
              Binary ({str(resource.mimeType) || "unknown type"}, {Math.floor((str(resource.blob).length * 3) / 4)}{" "}
              bytes)
            </p>
          )}
        </div>
      );
    }
    default:
      return <JsonBlock value={block} label="block" />;
  }
}
