/**
 * An agent's notifications/cancelled for a call to an MCP Connection's Tool. /mcp is
 * stateless, so the notification is a POST of its own that any instance may take, while
 * the call runs on the instance that took the tools/call. As for SDK Tool Host calls
 * (decision 0079), the call is found through the database by its request key (the Agent
 * Identity, its token and the JSON-RPC id): while it runs it has a tool_call row, never
 * collected by a host (it is born `delivered`), which cancelRequest marks cancelled from any
 * instance. The call then aborts its exchange with the Source, which hears the cancellation
 * the way its revision carries it. A hang-up aborts it too, from the request's own signal.
 */
import { getDb } from "../../db";
import { DomainError } from "../../errors";
import { log } from "../../log";
import { watch } from "./wakeups";

/** How often a call reads whether another instance marked it cancelled (this one's wake it at once). */
const CANCELLED_POLL_MS = 250;

const AGENT_CANCELLED = "the agent cancelled this call";

export async function cancellableByAgent<T>(
  options: { requestKey?: string; sourceId: string; nativeName: string; timeoutMs: number; signal?: AbortSignal },
  run: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (!options.requestKey) return run(options.signal);
  const cancelled = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, cancelled.signal]) : cancelled.signal;
  const db = await getDb();
  const now = new Date();
  // Written beside the call, not before it: the Source is asked at once.
  const registered = db.toolCall
    .create({
      data: {
        sourceId: options.sourceId,
        nativeName: options.nativeName,
        arguments: "{}",
        status: "delivered",
        deliveredAt: now,
        deadline: new Date(now.getTime() + options.timeoutMs),
        requestKey: options.requestKey,
      },
      select: { id: true },
    })
    .catch((error: unknown) => {
      log.warn({ err: error }, "a Connection call could not be made cancellable; a hang-up still cancels it");
      return null;
    });
  const done = new AbortController();
  const watching = (async () => {
    const row = await registered;
    if (!row) return;
    const marks = watch(`call:${row.id}`);
    try {
      while (!done.signal.aborted) {
        await marks.pause(CANCELLED_POLL_MS, done.signal);
        if (done.signal.aborted) break;
        const current = await db.toolCall.findUnique({ where: { id: row.id }, select: { status: true } });
        if (current?.status === "cancelled") {
          cancelled.abort(new Error(AGENT_CANCELLED));
          break;
        }
      }
    } finally {
      marks.close();
    }
  })().catch(() => {
    // A failed read leaves the call to run to its answer or deadline, as before cancellation existed.
  });
  try {
    return await run(signal);
  } catch (error) {
    if (signal.aborted)
      throw new DomainError(
        "TOOL_CALL_CANCELLED",
        "The agent cancelled this call (or hung up) before the Source answered; the Source was told to stop.",
      );
    throw error;
  } finally {
    done.abort();
    await watching;
    // Not awaited: the agent's answer need not wait for the bookkeeping.
    void registered.then((row) => row && db.toolCall.deleteMany({ where: { id: row.id } })).catch(() => {});
  }
}
