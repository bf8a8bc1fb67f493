import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Outputs = inferRouterOutputs<AppRouter>;

/** Shapes as they arrive in the browser (superjson keeps Dates as Dates). */
export type SourceView = Outputs["sources"]["get"];
export type CheckOutcome = Outputs["sources"]["checkNow"];
export type CheckRow = Outputs["sources"]["checks"]["items"][number];
export type SourceSurfaceView = Outputs["sources"]["surface"];
export type SurfaceItemRow = Outputs["sources"]["surfaceItems"]["items"][number];
export type CatalogTool = Outputs["catalog"]["listTools"]["items"][number];
export type NeighboursView = Outputs["catalog"]["neighbours"];
export type ToolDetailView = Outputs["catalog"]["getTool"];
export type SourceKind = SourceView["kind"];
