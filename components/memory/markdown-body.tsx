import type { ReactNode } from "react";
import { type Block, type Inline, parseMarkdown } from "./markdown";

/**
 * A memory body rendered from Markdown. Every piece of the body becomes a React text node
 * (escaped), never HTML: a memory can hold anything an agent wrote.
 */
export function MarkdownBody({ source }: { source: string }) {
  return (
    <div className="space-y-3 break-words text-sm leading-relaxed" data-testid="memory-body">
      {parseMarkdown(source).map((block, i) => renderBlock(block, i))}
    </div>
  );
}

const HEADING_CLASS = ["text-lg font-semibold", "text-base font-semibold", "text-sm font-semibold"] as const;

function renderBlock(block: Block, key: number): ReactNode {
  switch (block.type) {
    case "heading": {
      // Inside a page whose title is the h1, a body's headings sit below the page's own h2s.
      const Tag = (["h3", "h4", "h5", "h6", "h6", "h6"] as const)[block.level - 1] ?? "h6";
      return (
        <Tag key={key} className={HEADING_CLASS[Math.min(block.level, 3) - 1]}>
          {renderInline(block.children)}
        </Tag>
      );
    }
    case "paragraph":
      return <p key={key}>{renderInline(block.children)}</p>;
    case "code":
      return (
        <pre
          key={key}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keyboard
          tabIndex={0}
          className="overflow-x-auto rounded-md border border-border bg-surface-2 p-3 font-mono text-xs"
        >
          <code>{block.text}</code>
        </pre>
      );
    case "list": {
      const items = block.items.map((item, n) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: list items have no identity beyond their position
        <li key={n}>{renderInline(item)}</li>
      ));
      return block.ordered ? (
        <ol key={key} start={block.start} className="list-decimal space-y-1 pl-6">
          {items}
        </ol>
      ) : (
        <ul key={key} className="list-disc space-y-1 pl-6">
          {items}
        </ul>
      );
    }
    case "quote":
      return (
        <blockquote key={key} className="space-y-2 border-l-4 border-border pl-3 text-muted">
          {block.children.map((b, n) => renderBlock(b, n))}
        </blockquote>
      );
    case "hr":
      return <hr key={key} className="border-border" />;
  }
}

function renderInline(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.type) {
      case "text":
        return node.text;
      case "br":
        // biome-ignore lint/suspicious/noArrayIndexKey: inline runs have no identity beyond their position
        return <br key={i} />;
      case "code":
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: inline runs have no identity beyond their position
          <code key={i} className="rounded bg-surface-2 px-1 py-0.5 font-mono text-[0.85em]">
            {node.text}
          </code>
        );
      case "strong":
        // biome-ignore lint/suspicious/noArrayIndexKey: inline runs have no identity beyond their position
        return <strong key={i}>{renderInline(node.children)}</strong>;
      case "em":
        // biome-ignore lint/suspicious/noArrayIndexKey: inline runs have no identity beyond their position
        return <em key={i}>{renderInline(node.children)}</em>;
      case "link":
        return (
          <a
            // biome-ignore lint/suspicious/noArrayIndexKey: inline runs have no identity beyond their position
            key={i}
            href={node.href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="text-accent underline underline-offset-2"
          >
            {renderInline(node.children)}
          </a>
        );
      default:
        return null;
    }
  });
}
