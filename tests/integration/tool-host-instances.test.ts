/**
 * An SDK Tool Host call across two app instances on one PostgreSQL database (issue 32 item
 * 7, decision 0085): the agent calls through instance 1's /mcp, the host (the real SDK)
 * collects from and answers to instance 2. Both instances read the database for a missed
 * wake-up only every 10 minutes here (TOOL_HOST_WAKE_POLL_MS): without a notification the
 * host's collection would see the call only when its 25 s wait ran out, and the agent's
 * waiter would not read the result before the call's 50 s deadline (TOOL_CALL_TIMEOUT). Only
 * LISTEN/NOTIFY brings the call to the host and its result back within the client's 15 s.
 * PostgreSQL only: an embedded database is one process's, and its wake-ups never leave it.
 */
import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import { createToolHost } from "@quartermaster/tool-host";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "@/server/db";
import { WAKEUP_APPLICATION_NAME } from "@/server/domain/agent-tools/wakeup-listener";
import { LIMITS } from "@/server/limits";
import { type OtherInstance, startOtherInstance } from "../helpers/instance-process";
import { usePostgres } from "../helpers/template";
import { toolHostWorld } from "../helpers/tool-host-world";

const { cleanup, unique, newHostSource, agentFor, databaseUrl } = toolHostWorld("inst");
const NO_POLLING_MS = 600_000;
const pollSetting = LIMITS.TOOL_HOST_WAKE_POLL_MS as { value: number };

describe.runIf(usePostgres)("an SDK Tool Host call across two instances on PostgreSQL", () => {
  let other: OtherInstance;
  let pollBefore: number;

  beforeAll(async () => {
    pollBefore = pollSetting.value;
    pollSetting.value = NO_POLLING_MS; // this process is instance 1
    const url = databaseUrl();
    if (!url) throw new Error("no database URL");
    other = await startOtherInstance(url, 60_000, { TOOL_HOST_WAKE_POLL_MS: NO_POLLING_MS });
    cleanup.push(() => other.stop());
  }, 90_000);

  afterAll(() => {
    pollSetting.value = pollBefore;
  });

  /** An SDK Tool Host serving one Tool through instance 2, and an agent holding it through instance 1. */
  async function hostOnInstance2() {
    const { source, hostToken } = await newHostSource();
    const ran: string[] = [];
    // Model-facing names are unique across the catalog: each test's host names its Tool anew.
    const name = unique("where_am_i");
    const host = createToolHost({ url: other.url, token: hostToken, logger: false });
    host.tool({
      name,
      description: "Echo the text back, remembering it.",
      input: z.object({ text: z.string() }),
      handler: ({ text }) => {
        ran.push(text);
        return `host saw: ${text}`;
      },
    });
    cleanup.push(() => host.close({ graceMs: 0 }));
    await host.serve();
    const { client } = await agentFor(source.id);
    const call = (text: string) =>
      client.callTool({ name, arguments: { text } }, { timeout: 15_000 }) as Promise<CallToolResult>;
    return { ran, call, client: client as Client };
  }

  const textOf = (result: CallToolResult) => (result.content as { type: string; text?: string }[])[0]?.text;

  it("a call made through instance 1 reaches a host collecting from instance 2, and its result comes back", async () => {
    const { ran, call } = await hostOnInstance2();
    for (const text of ["first", "second", "third"]) {
      const result = await call(text);
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe(`host saw: ${text}`);
    }
    expect(ran).toEqual(["first", "second", "third"]);
  }, 60_000);

  it("each instance's listener connects again after its connection is terminated, and calls still cross", async () => {
    const { ran, call } = await hostOnInstance2();
    expect(textOf(await call("before"))).toBe("host saw: before");
    const db = await getDb();
    const listeners = () =>
      db.$queryRaw<{ pid: number }[]>`SELECT pid FROM pg_stat_activity
        WHERE application_name = ${WAKEUP_APPLICATION_NAME} AND datname = current_database()`;
    const before = await listeners();
    expect(before).toHaveLength(2); // one per instance, not one per pooled connection
    await db.$queryRaw`SELECT pg_terminate_backend(pid)::text FROM pg_stat_activity
      WHERE application_name = ${WAKEUP_APPLICATION_NAME} AND datname = current_database()`;
    // Both listeners come back on new connections (new backends).
    await expect
      .poll(async () => (await listeners()).filter((l) => !before.some((b) => b.pid === l.pid)).length, {
        timeout: 15_000,
        interval: 100,
      })
      .toBe(2);
    for (const text of ["after", "after again"]) {
      const result = await call(text);
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe(`host saw: ${text}`);
    }
    expect(ran).toEqual(["before", "after", "after again"]);
  }, 60_000);
});
