"use client";

/**
 * The proposal queue's state, apart from its view (proposals-page.tsx): which proposals are
 * selected, and the three decisions (accept one, reject one, decide many) with the notice
 * each leaves and the reject dialog they share.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type ReactNode, useCallback, useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { formatCount } from "@/components/ui/format";
import { parseError } from "@/components/ui/parse-error";
import { errorMessage } from "@/components/ui/use-error";

export type Notice = { tone: "ok" | "danger" | "info"; text: ReactNode };

/** A bulk decision takes at most this many proposals (proposals.decide). */
export const DECIDE_MAX = 200;

type ListInput = {
  scopeId: string;
  status: "pending" | "accepted" | "rejected" | "stale" | "all";
  kind?: "merge" | "supersede" | "discard" | "admit";
};

export function useProposalSelection({ scopeId, status, kind }: ListInput, setNotice: (n: Notice) => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const forget = (ids: string[]) =>
    setSelected((s) => {
      if (!ids.some((id) => s.has(id))) return s;
      const next = new Set(s);
      for (const id of ids) next.delete(id);
      return next;
    });
  const toggle = useCallback(
    (id: string, on: boolean) =>
      setSelected((s) => {
        const next = new Set(s);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    [],
  );
  // "Select all": the first proposals of the list (loaded or not), as many as one bulk decision takes.
  const [selecting, setSelecting] = useState(false);
  const selectFirst = async () => {
    setSelecting(true);
    try {
      const first = await queryClient.fetchQuery(
        trpc.proposals.list.queryOptions({ scopeId, status, kind, limit: DECIDE_MAX }),
      );
      setSelected(new Set(first.items.filter((p) => p.status === "pending").map((p) => p.id)));
    } catch (e) {
      setNotice({ tone: "danger", text: `Could not select: ${errorMessage(e)}` });
    } finally {
      setSelecting(false);
    }
  };
  return { selected, setSelected, toggle, forget, selecting, selectFirst };
}

export function useProposalDecisions({
  changed,
  forget,
  clearSelection,
  setNotice,
}: {
  /** Moves the scope version, so lists of this scope refetch. */
  changed: () => Promise<unknown>;
  forget: (ids: string[]) => void;
  clearSelection: () => void;
  setNotice: (n: Notice) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [rejecting, setRejecting] = useState<string[] | null>(null);
  // A decision moves the scope version: the list refetches the rows in view, and so do
  // the memory and thread pages when next shown.
  const refresh = () =>
    Promise.all([
      changed(),
      queryClient.invalidateQueries({ queryKey: trpc.memories.get.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.scopes.list.pathKey() }),
    ]);

  const accept = useMutation(
    trpc.proposals.accept.mutationOptions({
      onSuccess: (decided) => {
        forget([decided.id]);
        setNotice({
          tone: "ok",
          text: (
            <>
              Accepted the {decided.kind} proposal.
              {decided.resultMemoryId && (
                <>
                  {" "}
                  <Link href={`/memory/memories/${decided.resultMemoryId}`} className="font-medium underline">
                    {decided.kind === "merge"
                      ? "Open the merged memory"
                      : decided.kind === "admit"
                        ? "Open the admitted memory"
                        : "Open the memory that stays"}
                  </Link>
                </>
              )}
            </>
          ),
        });
        return refresh();
      },
      onError: (e) => {
        setNotice(
          parseError(e)?.code === "PROPOSAL_STALE"
            ? { tone: "info", text: "Recorded as stale: its memories had changed, so nothing was applied." }
            : { tone: "danger", text: `Not accepted: ${errorMessage(e)}` },
        );
        return refresh();
      },
    }),
  );
  const reject = useMutation(
    trpc.proposals.reject.mutationOptions({
      onSuccess: (decided) => {
        forget([decided.id]);
        setRejecting(null);
        setNotice({ tone: "ok", text: "Rejected. These memories will not be proposed together again." });
        return refresh();
      },
    }),
  );
  const decide = useMutation(
    trpc.proposals.decide.mutationOptions({
      onSuccess: (r, input) => {
        setRejecting(null);
        clearSelection();
        const verb = input.decision === "accept" ? "Accepted" : "Rejected";
        setNotice({
          tone: r.failed ? "danger" : "ok",
          text: r.failed ? (
            <>
              {verb} {formatCount(r.decided)}; {formatCount(r.failed)} not decided:
              <ul className="mt-1 list-disc pl-5">
                {r.results
                  .filter((x) => !x.ok)
                  .slice(0, 5)
                  .map((x) => (
                    <li key={x.id}>{x.message}</li>
                  ))}
              </ul>
            </>
          ) : (
            `${verb} ${formatCount(r.decided)} ${r.decided === 1 ? "proposal" : "proposals"}.`
          ),
        });
        return refresh();
      },
    }),
  );
  const busy = accept.isPending || reject.isPending || decide.isPending;
  return { accept, reject, decide, busy, rejecting, setRejecting };
}
