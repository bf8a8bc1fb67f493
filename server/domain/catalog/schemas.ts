import { z } from "zod";
import { LIMITS } from "../../limits";
import { COMPATIBILITY_STATES, NOT_OFFERABLE } from "./compatibility";

export const TOOL_SORTS = ["name", "source", "compatibility", "size", "lastChanged"] as const;

export const ZListToolsInput = z
  .object({
    sourceId: z.string().optional(),
    /** A compatibility state, or "not_offerable": every Tool no model is offered (any state but Compatible, or withdrawn). */
    state: z.enum([...COMPATIBILITY_STATES, NOT_OFFERABLE]).optional(),
    /** Matches native name, model-facing name, title and description. */
    search: z.string().trim().max(200, "must be at most 200 characters").optional(),
    sort: z.enum(TOOL_SORTS).default("name"),
    direction: z.enum(["asc", "desc"]).default("asc"),
    /** Opaque; from the previous page's nextCursor. */
    cursor: z.string().max(40).optional(),
    limit: z.number().int().min(1).max(LIMITS.PAGE_SIZE_MAX.value).default(100),
  })
  .default({ sort: "name", direction: "asc", limit: 100 });
export type TListToolsInput = z.input<typeof ZListToolsInput>;

export const ZToolIdInput = z.object({ id: z.string().min(1) });

export const ZFacetsInput = z.object({ sourceId: z.string().optional() }).default({});

export const ZCheckChangesInput = z.object({
  checkId: z.string().min(1),
  /** Matches native and model-facing names. */
  search: z.string().trim().max(200, "must be at most 200 characters").optional(),
  /** Opaque; from the previous page's nextCursor. */
  cursor: z.string().max(40).optional(),
  limit: z.number().int().min(1).max(LIMITS.PAGE_SIZE_MAX.value).default(100),
});

export const SURFACE_KINDS = ["resource", "template", "prompt"] as const;

/** One page of what a Source's last successful check recorded of one list, in the server's order. */
export const ZSourceSurfaceItemsInput = z.object({
  id: z.string().min(1),
  kind: z.enum(SURFACE_KINDS),
  /** Opaque; from the previous page's nextCursor. */
  cursor: z.string().max(40).optional(),
  limit: z.number().int().min(1).max(LIMITS.PAGE_SIZE_MAX.value).default(100),
});
export type TSourceSurfaceItemsInput = z.input<typeof ZSourceSurfaceItemsInput>;
