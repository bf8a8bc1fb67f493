import { createCallerFactory, router } from "./init";
import { apiKeysRouter } from "./routers/api-keys";
import { approvalsRouter } from "./routers/approvals";
import { auditRouter } from "./routers/audit";
import { callsRouter, rateLimitsRouter } from "./routers/calls";
import { catalogRouter } from "./routers/catalog";
import { identitiesRouter } from "./routers/identities";
import { meRouter } from "./routers/me";
import {
  consolidatorRouter,
  factsRouter,
  memoriesRouter,
  proposalsRouter,
  retentionRouter,
  scopesRouter,
  signingKeysRouter,
  threadsRouter,
} from "./routers/memory";
import { reviewRouter } from "./routers/review";
import { sourcesRouter } from "./routers/sources";
import { usersRouter } from "./routers/users";

export const appRouter = router({
  me: meRouter,
  users: usersRouter,
  apiKeys: apiKeysRouter,
  audit: auditRouter,
  sources: sourcesRouter,
  approvals: approvalsRouter,
  catalog: catalogRouter,
  review: reviewRouter,
  identities: identitiesRouter,
  scopes: scopesRouter,
  signingKeys: signingKeysRouter,
  memories: memoriesRouter,
  facts: factsRouter,
  threads: threadsRouter,
  proposals: proposalsRouter,
  consolidator: consolidatorRouter,
  retention: retentionRouter,
  calls: callsRouter,
  rateLimits: rateLimitsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
