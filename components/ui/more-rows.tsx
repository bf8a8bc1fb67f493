import { Button } from "./button";
import { formatCount } from "./format";

/** Under a paged table: how many rows are shown of how many, and a button for the next page. */
export function MoreRows({
  shown,
  total,
  pages,
  label,
}: {
  shown: number;
  total: number;
  pages: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  /** The button's words, e.g. "Load 200 more" or "Load older". */
  label: string;
}) {
  return (
    <div className="flex flex-wrap items-center justify-center gap-3 text-sm text-muted">
      <span>
        Showing {formatCount(shown)} of {formatCount(total)}
      </span>
      {pages.hasNextPage && (
        <Button variant="secondary" onClick={() => pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          {pages.isFetchingNextPage ? "Loading…" : label}
        </Button>
      )}
    </div>
  );
}
