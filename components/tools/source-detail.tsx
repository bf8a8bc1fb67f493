"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowRight, KeyRound, Pause, Pencil, Play, Trash2, UserPlus } from "lucide-react";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { memo, useEffect, useRef, useState } from "react";
import { CallStats } from "@/components/calls/call-stats";
import { useCan } from "@/components/layout/current-user";
import { SourceCallPolicyCard } from "@/components/tools/call-policy-card";
import { SourceReviewCard } from "@/components/tools/review-policy-card";
import { useTRPC } from "@/components/trpc/client";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Card, CardHeader } from "@/components/ui/card";
import { formatCount } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { DetailQuery } from "@/components/ui/query-view";
import { LoadingRows } from "@/components/ui/states";
import { errorMessage } from "@/components/ui/use-error";
import { AssignToIdentityDialog } from "./assign-to-identity";
import { CheckCharts as CheckChartsOf } from "./check-charts";
import { CheckHistory } from "./check-history";
import { CheckNowButton, CheckProgressPanel, useCheckNow } from "./check-now-panel";
import { DeleteSourceDialog } from "./delete-source-dialog";
import { EditSourceDialog } from "./edit-source-dialog";
import { KIND_LABELS } from "./labels";
import { RotateTokenDialog } from "./rotate-token-dialog";
import { FailureAlert, HostSilentAlert } from "./source-alerts";
import { ChangesSinceLastGood as ChangesOf, UsedBy as UsedByOf } from "./source-context";
import { SourceFacts } from "./source-facts";
import { CheckingBadge, PausedBadge, SourceStateBadge } from "./source-state-badge";
import { SourceSurface as SourceSurfaceOf } from "./source-surface";
import type { SourceView } from "./types";

// The page re-renders whenever its Source or its address changes (a dialog's search, the
// check it shows); these read their own queries, so they render again only when their data do.
const CheckCharts = memo(CheckChartsOf);
const UsedBy = memo(UsedByOf);
const ChangesSinceLastGood = memo(ChangesOf);
const SourceSurface = memo(SourceSurfaceOf);

export function SourceDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  // Once deleted, stop asking for it: a refetch before the redirect would flash "not found".
  const [deleted, setDeleted] = useState(false);
  const source = useQuery({
    ...trpc.sources.get.queryOptions({ id }),
    enabled: !deleted,
    refetchInterval: (q) => (q.state.data?.checking ? 1_500 : 15_000),
  });

  if (deleted) return <LoadingRows label="Deleted; returning to Sources" />;
  return (
    <DetailQuery
      query={source}
      parent={{ href: "/tools/sources", label: "Sources" }}
      noun="Source"
      loadingLabel="Loading the Source"
      bareLoading
      missing={{ title: "This Source does not exist", body: "It may have been deleted." }}
    >
      {(data) => <Loaded source={data} onDeleted={() => setDeleted(true)} />}
    </DetailQuery>
  );
}

/** A new Connection's first check: under way, then what it found (the callout stays, its words move on). */
function firstCheckInWords(source: SourceView, running: boolean): string {
  if (running || source.checking || source.catalogState === "never_checked")
    return "Its first check is listing the server’s Tools.";
  if (source.catalogState === "failing") return "Its first check failed; what went wrong and what to try are below.";
  return `Its first check found ${formatCount(source.toolCount)} ${source.toolCount === 1 ? "Tool" : "Tools"}.`;
}

function Loaded({ source, onDeleted }: { source: SourceView; onDeleted: () => void }) {
  const canWrite = useCan("operator");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const checkNow = useCheckNow(source);
  const [dialog, setDialog] = useState<"edit" | "delete" | "rotate" | "assign" | null>(null);
  const isConnection = source.kind === "mcp_connection";
  const justCreated = useSearchParams().get("created") === "1";

  // A Connection just saved here gets its first check at once, with its progress in view
  // (unless the scheduler already took it: then that check's progress shows).
  const started = useRef(false);
  const { start } = checkNow;
  useEffect(() => {
    if (started.current || !justCreated || !canWrite || !isConnection) return;
    started.current = true;
    if (source.catalogState !== "never_checked" || source.checking) return;
    // Asked again first: the scheduler may have run the first check since this page read
    // the Source, and a second one would only repeat it (as "Check now").
    queryClient
      .fetchQuery({ ...trpc.sources.get.queryOptions({ id: source.id }), staleTime: 0 })
      .then((fresh) => fresh.catalogState === "never_checked" && !fresh.checking && start())
      .catch(() => start());
  }, [justCreated, canWrite, isConnection, source.catalogState, source.checking, source.id, start, queryClient, trpc]);

  const refresh = () => {
    queryClient.invalidateQueries({ queryKey: trpc.sources.get.queryKey({ id: source.id }) });
    queryClient.invalidateQueries({ queryKey: trpc.sources.list.queryKey() });
  };
  const pause = useMutation(trpc.sources.update.mutationOptions({ onSuccess: refresh }));

  // A check or registration that finished elsewhere (the scheduler, the host) changes
  // the history and the catalog too.
  const lastCheck = source.lastCheckAt?.getTime();
  const seenCheck = useRef(lastCheck);
  useEffect(() => {
    if (lastCheck === seenCheck.current) return;
    seenCheck.current = lastCheck;
    queryClient.invalidateQueries({ queryKey: trpc.sources.checks.pathKey() });
    queryClient.invalidateQueries({ queryKey: trpc.sources.surface.queryKey({ id: source.id }) });
    queryClient.invalidateQueries({ queryKey: trpc.catalog.pathKey() });
  }, [lastCheck, queryClient, trpc, source.id]);

  const actions = canWrite && (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        variant="secondary"
        disabled={pause.isPending}
        onClick={() => pause.mutate({ id: source.id, paused: !source.paused })}
      >
        {source.paused ? <Play className="size-4" aria-hidden /> : <Pause className="size-4" aria-hidden />}
        {`${source.paused ? "Resume" : "Pause"} ${isConnection ? "checks" : "registrations"}`}
      </Button>
      {!isConnection && (
        <Button variant="secondary" onClick={() => setDialog("rotate")}>
          <KeyRound className="size-4" aria-hidden /> Rotate token
        </Button>
      )}
      <Button variant="secondary" onClick={() => setDialog("edit")}>
        <Pencil className="size-4" aria-hidden /> Edit
      </Button>
      <Button variant="secondary" onClick={() => setDialog("delete")}>
        <Trash2 className="size-4" aria-hidden /> Delete
      </Button>
      {isConnection && <CheckNowButton state={checkNow} />}
    </div>
  );

  return (
    <>
      <Breadcrumbs items={[{ href: "/tools/sources", label: "Sources" }, { label: source.name }]} />
      <PageHeader
        title={source.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span>{KIND_LABELS[source.kind]}</span>
            <SourceStateBadge source={source} testId="catalog-state" />
            {source.paused && <PausedBadge kind={source.kind} />}
            {source.checking && !checkNow.running && <CheckingBadge />}
            {source.description && <span className="basis-full">{source.description}</span>}
          </span>
        }
        actions={actions || undefined}
      />
      {pause.error && (
        <p role="alert" className="mb-4 text-sm font-medium text-danger">
          {errorMessage(pause.error)}
        </p>
      )}
      {justCreated && canWrite && (
        <Callout
          tone="ok"
          className="mb-4"
          title={`${isConnection ? "MCP Connection" : "SDK Tool Host"} added`}
          data-testid="source-created"
        >
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p data-testid="source-created-next">
              {isConnection ? firstCheckInWords(source, checkNow.running) : "Its Tools appear once the host registers."}{" "}
              Agents see them once an Agent Identity holds this Source.
            </p>
            <Button size="sm" onClick={() => setDialog("assign")}>
              <UserPlus className="size-4" aria-hidden /> Assign to an identity
            </Button>
          </div>
        </Callout>
      )}
      {isConnection && <CheckProgressPanel state={checkNow} />}
      <FailureAlert source={source} />
      <ChangesSinceLastGood source={source} />
      <HostSilentAlert source={source} />

      <div className="space-y-6">
        <Card>
          <CardHeader
            title="Catalog"
            description={
              isConnection
                ? "What the last successful check found, and how this Connection is checked."
                : "What the host last registered, and how it keeps its Tools offered."
            }
            actions={
              source.toolCount > 0 && (
                <Link
                  href={`/tools/catalog?source=${source.id}`}
                  className="inline-flex items-center gap-1 text-sm font-medium text-accent hover:underline"
                >
                  View {formatCount(source.toolCount)} {source.toolCount === 1 ? "Tool" : "Tools"} in the catalog
                  <ArrowRight className="size-4" aria-hidden />
                </Link>
              )
            }
          />
          <div className="p-4">
            <SourceFacts source={source} />
          </div>
        </Card>

        {isConnection && <SourceSurface sourceId={source.id} />}

        <CheckCharts sourceId={source.id} isHost={!isConnection} />

        <UsedBy sourceId={source.id} />

        <CallStats subject="source" id={source.id} />

        <SourceCallPolicyCard sourceId={source.id} policy={source.callPolicy} />

        <SourceReviewCard sourceId={source.id} policy={source.reviewPolicy} />

        <section aria-labelledby="history-title">
          <h2 id="history-title" className="mb-3 text-base font-semibold">
            {isConnection ? "Check history" : "Registration history"}
          </h2>
          <CheckHistory sourceId={source.id} isHost={!isConnection} />
        </section>
      </div>

      {canWrite && (
        <>
          {dialog === "assign" && <AssignToIdentityDialog source={source} onClose={() => setDialog(null)} />}
          <EditSourceDialog
            source={source}
            open={dialog === "edit"}
            onClose={() => setDialog(null)}
            onSaved={(saved) => {
              queryClient.setQueryData(trpc.sources.get.queryKey({ id: source.id }), saved);
              refresh();
            }}
          />
          <DeleteSourceDialog
            source={source}
            open={dialog === "delete"}
            onClose={() => setDialog(null)}
            onDeleted={() => {
              onDeleted();
              queryClient.removeQueries({ queryKey: trpc.sources.get.queryKey({ id: source.id }) });
              queryClient.invalidateQueries({ queryKey: trpc.sources.list.queryKey() });
              queryClient.invalidateQueries({ queryKey: trpc.catalog.pathKey() });
              router.push("/tools/sources");
            }}
          />
          {!isConnection && (
            <RotateTokenDialog
              source={source}
              open={dialog === "rotate"}
              onClose={() => setDialog(null)}
              onRotated={refresh}
            />
          )}
        </>
      )}
    </>
  );
}
