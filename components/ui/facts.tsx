import type { ReactNode } from "react";
import { cn } from "./cn";

/** Label/value pairs as a description list, in a responsive grid. */
export function Facts({
  items,
  className,
}: {
  items: Array<{ label: string; value: ReactNode } | false>;
  className?: string;
}) {
  return (
    <dl className={cn("grid gap-x-6 gap-y-4 sm:grid-cols-2 lg:grid-cols-3", className)}>
      {items.filter(Boolean).map((item) =>
        item ? (
          <div key={item.label} className="min-w-0">
            <dt className="text-xs font-medium uppercase tracking-wide text-muted">{item.label}</dt>
            <dd className="mt-1 break-words text-sm">{item.value}</dd>
          </div>
        ) : null,
      )}
    </dl>
  );
}
