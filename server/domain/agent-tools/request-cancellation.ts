/**
 * An agent's notifications/cancelled for a call to an MCP Connection's Tool. /mcp is
 * stateless, so the notification is a POST of its own that any instance may take, while the
 * call runs on the instance that took the tools/call. The cancel is announced by the call's
 * request key (the Agent Identity, its token and the JSON-RPC id, so only the same identity
 * and token can reach the call): in-process, and on PostgreSQL to the other instances by
 * NOTIFY (wakeup-listener.ts). The call then aborts its exchange with the Source, which hears
 * the cancellation the way its revision carries it. A hang-up aborts it too, from the
 * request's own signal.
 *
 * Nothing is written per call: a proxied call's cost is the gateway's figure of merit
 * (decision 0085), and a cancel lost with a listener's connection costs only what a cancel
 * that came too late costs — the Source answers, and the agent has stopped listening.
 */
import { DomainError } from "../../errors";
import { listenForWakeups, signalWakeup } from "./wakeup-listener";
import { ANNOUNCED, watch } from "./wakeups";

const AGENT_CANCELLED = "the agent cancelled this call";

const announcement = (requestKey: string) => `${ANNOUNCED}agent-cancel:${requestKey}`;

/** Announces the agent's cancel of its request to whichever instance runs it. */
export async function announceCancel(requestKey: string): Promise<void> {
  await signalWakeup(announcement(requestKey));
}

export async function cancellableByAgent<T>(
  options: { requestKey?: string; timeoutMs: number; signal?: AbortSignal },
  run: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (!options.requestKey) return run(options.signal);
  await listenForWakeups();
  const cancelled = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, cancelled.signal]) : cancelled.signal;
  const announced = watch(announcement(options.requestKey));
  const done = new AbortController();
  // Past the call's own deadline the exchange has ended anyway: the pause outlasts it.
  const watching = announced.pause(options.timeoutMs * 2, done.signal).then(() => {
    if (!done.signal.aborted) cancelled.abort(new Error(AGENT_CANCELLED));
  });
  try {
    return await run(signal);
  } catch (error) {
    if (cancelled.signal.aborted || options.signal?.aborted)
      throw new DomainError(
        "TOOL_CALL_CANCELLED",
        "The agent cancelled this call (or hung up) before the Source answered; the Source was told to stop.",
      );
    throw error;
  } finally {
    done.abort();
    await watching;
    announced.close();
  }
}
