import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { trustedProxyList } from "@/env";
import { startDraining } from "../instance";
import { leavePool, type Traffic, watchConnections, watchTraffic } from "./drain";
import { createFrontServer, requestLogLevel } from "./front";

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
  it("counts requests in flight and the last one that was not a probe", async () => {
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

      // Draining but still listening: connections are kept (a proxy that keeps them opens no
      // new one the closing listener could reset).
      startDraining();
      expect((await get(`${base}/mcp`)).headers.connection).toBe("keep-alive");
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

/** A raw connection to the server, with everything it reads and how it ended. */
async function rawConnection(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  let read = "";
  const ended = new Promise<"end" | string>((resolve) => {
    socket.on("data", (c: Buffer) => {
      read += c.toString();
    });
    socket.once("end", () => resolve("end"));
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("error", reject);
  });
  return { socket, ended, read: () => read };
}

const REQUEST = "POST /mcp HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\n{}";

describe("closing a draining server", () => {
  it("refuses new connections, answers requests on the ones it has with Connection: close, and ends idle ones gently once quiet", async () => {
    startDraining();
    const server = createFrontServer(
      async (_req, res) => {
        res.end("answered");
      },
      { dev: false, trustedProxies: trustedProxyList([]), https: false },
    );
    const traffic = watchTraffic(server);
    const connections = watchConnections(server, traffic);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    const count = () => new Promise<number>((resolve) => server.getConnections((_e, n) => resolve(n)));

    // A proxy's kept connection (used once), and one it opened and is about to send on.
    const kept = await rawConnection(port);
    kept.socket.write(REQUEST);
    await expect.poll(() => kept.read()).toMatch(/answered$/);
    expect(kept.read()).toMatch(/connection: keep-alive/i);
    const fresh = await rawConnection(port);
    await expect.poll(count).toBe(2);

    const closing = connections.close(Date.now() + 10_000);
    // The listener is gone: a new connection is refused (a proxy retries that elsewhere)…
    await expect
      .poll(() =>
        rawConnection(port).then(
          (c) => {
            c.socket.destroy();
            return "connected";
          },
          (e: NodeJS.ErrnoException) => e.code,
        ),
      )
      .toBe("ECONNREFUSED");
    expect(connections.closing()).toBe(true);
    // …while requests on the connections it had are answered, each closing its connection.
    for (const c of [fresh, kept]) {
      const before = c.read().length;
      c.socket.write(REQUEST);
      expect(await c.ended).toBe("end");
      const answer = c.read().slice(before);
      expect(answer).toMatch(/^HTTP\/1.1 200/);
      expect(answer).toMatch(/connection: close/i);
    }
    expect(await closing).toBe(0);
  }, 15_000);

  it("ends a kept connection that stays idle with a FIN once no request has come for the quiet time", async () => {
    const server = createFrontServer(
      async (_req, res) => {
        res.end("answered");
      },
      { dev: false, trustedProxies: trustedProxyList([]), https: false },
    );
    const connections = watchConnections(server, watchTraffic(server));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const kept = await rawConnection((server.address() as AddressInfo).port);
    kept.socket.write(REQUEST);
    await expect.poll(() => kept.read()).toMatch(/answered$/);
    const closing = connections.close(Date.now() + 10_000);
    expect(await kept.ended).toBe("end");
    expect(await closing).toBe(0);
  }, 15_000);

  it("logs a readiness 503 during a drain below error level; other server errors stay errors", () => {
    expect(requestLogLevel("/api/ready", 503, true)).toBe("debug");
    expect(requestLogLevel("/api/ready", 503, false)).toBe("warn");
    expect(requestLogLevel("/mcp", 503, true)).toBe("error");
    expect(requestLogLevel("/api/ready", 500, true)).toBe("error");
    expect(requestLogLevel("/api/ready", 200, false)).toBe("debug");
  });
});
