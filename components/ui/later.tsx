import { Hourglass } from "lucide-react";
import type { ReactNode } from "react";
import { PageHeader } from "./page-header";
import { EmptyState } from "./states";

/** A section whose feature has not shipped yet says so plainly, and what it will do. */
export function ComingLater({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <EmptyState title="Not available yet" icon={<Hourglass className="size-8" />}>
        {children}
      </EmptyState>
    </>
  );
}
