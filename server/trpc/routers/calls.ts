import { z } from "zod";
import { callStats, getCall, listCalls } from "../../domain/calls/queries";
import { ZCallLogSettingsInput, ZCallStatsInput, ZListCallsInput, ZSetCaptureInput } from "../../domain/calls/schemas";
import { getCallLogSettings, getCapture, setCallLogSettings, setCapture } from "../../domain/calls/settings";
import { getRateLimit, setRateLimit } from "../../domain/rate-limits/config";
import { procedure, router } from "../init";
import { mutationOf, queryOf } from "../operations";

export const callsRouter = router({
  list: procedure("viewer")
    .input(ZListCallsInput)
    .query(({ ctx, input }) => listCalls(ctx.actor, input)),
  get: procedure("viewer")
    .input(z.object({ id: z.string().min(1) }))
    .query(({ ctx, input }) => getCall(ctx.actor, input)),
  stats: procedure("viewer")
    .input(ZCallStatsInput)
    .query(({ ctx, input }) => callStats(ctx.actor, input)),
  settings: procedure("viewer").query(({ ctx }) => getCallLogSettings(ctx.actor)),
  setSettings: procedure("admin")
    .input(ZCallLogSettingsInput)
    .mutation(({ ctx, input }) => setCallLogSettings(ctx.actor, input)),
  capture: procedure("viewer")
    .input(ZSetCaptureInput.pick({ identityId: true }))
    .query(({ ctx, input }) => getCapture(ctx.actor, input)),
  setCapture: procedure("admin")
    .input(ZSetCaptureInput)
    .mutation(({ ctx, input }) => setCapture(ctx.actor, input)),
});

export const rateLimitsRouter = router({
  get: queryOf(getRateLimit),
  set: mutationOf(setRateLimit),
});
