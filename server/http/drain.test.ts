import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { trustedProxyList } from "@/env";
import { startDraining } from "../instance";
import { leavePool, type Traffic, watchTraffic } from "./drain";
import { createFrontServer } from "./front";

function get(url: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        res.resume();
        res.on("end", () => resolve(res));
      })
      .on("error", reject);
  });
}

describe("draining", () => {
  it("counts requests in flight and the last one that was not a probe; once draining, every answer closes its connection", async () => {
    let release = () => {};
    const server = createFrontServer(
      async (req, res) => {
        if (req.url === "/slow") await new Promise<void>((r) => (release = r));
        res.end("ok");
      },
      { dev: false, trustedProxies: trustedProxyList([]), https: false },
    );
    const traffic = watchTraffic(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await get(`${base}/api/ready`)).headers.connection).toBe("keep-alive");
      expect(traffic.lastRequestAt()).toBe(0); // a probe is not traffic
      const slow = get(`${base}/slow`);
      await expect.poll(() => traffic.inFlight()).toBe(1);
      expect(traffic.lastRequestAt()).toBeGreaterThan(0);
      release();
      await slow;
      await expect.poll(() => traffic.inFlight()).toBe(0);

      startDraining();
      expect((await get(`${base}/mcp`)).headers.connection).toBe("close");
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it("leaves the pool once requests stop coming for the quiet time, or at the cap when they never do", async () => {
    // Requests keep coming for 600 ms, then stop.
    const start = Date.now();
    const stopping: Traffic = { inFlight: () => 0, lastRequestAt: () => Math.min(Date.now(), start + 600) };
    const quiet = await leavePool(stopping, { quietMs: 300, maxMs: 60_000 });
    expect(quiet.quiet).toBe(true);
    expect(quiet.waitedMs).toBeGreaterThanOrEqual(900);

    // They never stop: the cap ends the wait.
    const endless: Traffic = { inFlight: () => 0, lastRequestAt: () => Date.now() };
    const capped = await leavePool(endless, { quietMs: 300, maxMs: 700 });
    expect(capped.quiet).toBe(false);
    expect(capped.waitedMs).toBeGreaterThanOrEqual(700);
  });
});
