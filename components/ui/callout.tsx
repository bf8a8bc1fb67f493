import { AlertTriangle, CheckCircle2, Info, OctagonAlert } from "lucide-react";
import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "./cn";

const TONES = {
  info: { box: "border-border bg-surface-2", title: "text-fg", Icon: Info },
  ok: { box: "border-ok/40 bg-ok-soft", title: "text-ok", Icon: CheckCircle2 },
  warn: { box: "border-warn/40 bg-warn-soft", title: "text-warn", Icon: AlertTriangle },
  danger: { box: "border-danger/40 bg-danger-soft", title: "text-danger", Icon: OctagonAlert },
} as const;

/** A boxed message that must not be missed: a failure, a warning, a reason. */
export function Callout({
  tone = "info",
  title,
  children,
  className,
  ...props
}: {
  tone?: keyof typeof TONES;
  title?: ReactNode;
  children?: ReactNode;
} & Omit<HTMLAttributes<HTMLDivElement>, "title">) {
  const { box, title: titleClass, Icon } = TONES[tone];
  return (
    <div className={cn("flex items-start gap-3 rounded-lg border px-4 py-3 text-sm", box, className)} {...props}>
      <Icon className={cn("mt-0.5 size-4 shrink-0", titleClass)} aria-hidden />
      <div className="min-w-0 flex-1 space-y-1">
        {title && <p className={cn("font-semibold", titleClass)}>{title}</p>}
        {children && <div className="text-fg">{children}</div>}
      </div>
    </div>
  );
}
