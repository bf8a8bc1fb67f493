import { createCallerFactory, router } from "./init";
import { apiKeysRouter } from "./routers/api-keys";
import { auditRouter } from "./routers/audit";
import { meRouter } from "./routers/me";
import { usersRouter } from "./routers/users";

export const appRouter = router({
  me: meRouter,
  users: usersRouter,
  apiKeys: apiKeysRouter,
  audit: auditRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
