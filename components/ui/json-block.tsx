import { CopyButton } from "./copy-button";

/** Pretty-printed JSON in a scrollable, keyboard-focusable block, with a Copy button. */
export function JsonBlock({
  value,
  label,
  note,
  maxHeight = "28rem",
}: {
  value: unknown;
  /** Names the Copy button ("Copy definition"). */
  label: string;
  note?: string;
  maxHeight?: string;
}) {
  const text = JSON.stringify(value, null, 2) ?? "null";
  return (
    <div className="overflow-hidden rounded-md border border-border">
      <div className="flex items-center justify-between gap-2 border-b border-border bg-surface px-3 py-1.5">
        <span className="text-xs text-muted">{note}</span>
        <CopyButton value={text} label={`Copy ${label}`} />
      </div>
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keyboard
        tabIndex={0}
        style={{ maxHeight }}
        className="overflow-auto bg-surface-2 p-3 font-mono text-xs leading-relaxed"
      >
        {text}
      </pre>
    </div>
  );
}
