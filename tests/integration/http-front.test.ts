/**
 * What every request meets before a route reads it (server/http/front.ts): a bound on its
 * body per route, answered 413 before reading further; security headers; and a client
 * address that forwarded headers change only when a trusted proxy sent them.
 */
import { readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveApp } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";

withTestDatabase();

let app: Awaited<ReturnType<typeof serveApp>>;
beforeAll(async () => {
  app = await serveApp();
});
afterAll(async () => {
  await app?.close();
});

const MiB = 1024 * 1024;

/** Peak resident memory of this process since the last reset, in bytes (Linux). */
function peakMemory(): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1]) * 1024;
}
function resetPeakMemory() {
  writeFileSync("/proc/self/clear_refs", "5");
}

/**
 * POSTs `bytes` of body (from one reused 64 KiB chunk, so the sender holds no more than
 * that) and returns the answer the server gave, whenever it gave it.
 */
function post(path: string, bytes: number, options: { chunked?: boolean } = {}) {
  return new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, "a");
    const req = http.request(`${app.url}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(options.chunked ? {} : { "content-length": String(bytes) }),
      },
    });
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.on("data", (c) => {
        body += c;
      });
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
      });
    });
    // The server hangs up once it has answered; a write may fail just before the answer is read.
    req.on("error", (error) => {
      setTimeout(() => {
        if (!answered) reject(error);
      }, 2000);
    });
    let sent = 0;
    const pump = () => {
      while (sent < bytes && !answered && !req.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      if (sent >= bytes && !req.destroyed) req.end();
    };
    pump();
  });
}

const ROUTES: Array<[path: string, limit: string]> = [
  ["/api/auth/sign-in/email", "AUTH_REQUEST_BODY_BYTES"],
  ["/api/trpc/sources.update", "TRPC_REQUEST_BODY_BYTES"],
  ["/mcp", "MCP_REQUEST_BODY_BYTES"],
  ["/api/v1/tool-hosts/registration", "SDK_REGISTRATION_BODY_BYTES"],
  ["/api/v1/tool-hosts/calls/results", "SDK_RESULT_SUBMISSION_BYTES"],
  ["/api/v1/tool-hosts/heartbeat", "TOOL_HOST_REQUEST_BODY_BYTES"],
  ["/tools/catalog", "OTHER_REQUEST_BODY_BYTES"],
];

describe("request bodies", () => {
  it("of 100 MiB to every route are refused 413 without being read: the process does not grow", async () => {
    await post("/tools/catalog", 1 * MiB); // the first answer loads code; that is not what is measured
    for (const [path, limit] of ROUTES) {
      resetPeakMemory();
      const before = peakMemory();
      const answer = await post(path, 100 * MiB);
      // Read into memory, the body alone would add 100 MiB. This process also runs the test's
      // client and database, so it is noisier than the product's own: e2e/security.spec.ts
      // holds a running instance to a few MiB.
      expect(peakMemory() - before, path).toBeLessThan(24 * MiB);
      expect(answer.status, path).toBe(413);
      const body = JSON.parse(answer.body);
      const details = path === "/mcp" ? body.error.data : body.details;
      expect(details, path).toMatchObject({ measured: 100 * MiB, setting: limit });
      expect(path === "/mcp" ? body.error.message : body.message).toMatch(
        /^(REQUEST_BODY_TOO_LARGE: )?The request body is 100\.00 MiB/,
      );
    }
  });

  it("sent without a length are read no further than the route's bound, or not at all", async () => {
    await post("/api/auth/sign-in/email", 1000, { chunked: true });
    resetPeakMemory();
    const before = peakMemory();
    // Read (a sign-in), up to the bound: then 413.
    const signIn = await post("/api/auth/sign-in/email", 100 * MiB, { chunked: true });
    expect(signIn.status).toBe(413);
    expect(signIn.body).toContain("REQUEST_BODY_TOO_LARGE");
    // Refused before reading (no token): answered at once, and the rest is not read either.
    const mcp = await post("/mcp", 100 * MiB, { chunked: true });
    expect(mcp.status).toBe(401);
    expect(peakMemory() - before).toBeLessThan(24 * MiB);
  });

  it("answered early still reach a client that sends its whole body before reading: 413, not a reset", async () => {
    // Written whole (waiting only for the socket to take each piece), then the answer read:
    // the client of a simple script, which a server that stops reading and closes would reset.
    const sendAllThenRead = (path: string, bytes: number, headers: string) =>
      new Promise<string>((resolve, reject) => {
        const { port } = new URL(app.url);
        const socket = net.connect(Number(port), "127.0.0.1");
        const chunk = Buffer.alloc(64 * 1024, "a");
        let answer = "";
        socket.on("data", (d) => {
          answer += d;
        });
        socket.on("end", () => resolve(answer));
        socket.on("error", (error) => reject(new Error(`${path}: ${error.message} with ${answer.length} bytes read`)));
        socket.once("connect", async () => {
          socket.pause(); // nothing is read before the body is sent
          // Connection: close, as simple clients send it (Python's urllib does).
          socket.write(
            `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\ncontent-type: application/json\r\n${headers}\r\n`,
          );
          const chunked = headers.includes("chunked");
          const size = Buffer.from(`${chunk.length.toString(16)}\r\n`);
          const crlf = Buffer.from("\r\n");
          for (let sent = 0; sent < bytes; sent += chunk.length) {
            if (chunked) socket.write(size);
            const taken = socket.write(chunk);
            if (chunked) socket.write(crlf);
            if (!taken) await new Promise((r) => socket.once("drain", r));
          }
          if (chunked) socket.write("0\r\n\r\n");
          socket.resume();
        });
      });
    resetPeakMemory();
    const before = peakMemory();
    for (let run = 0; run < 2; run++) {
      const declared = await sendAllThenRead("/api/trpc/sources.update", 64 * MiB, `content-length: ${64 * MiB}\r\n`);
      expect(declared, `run ${run}`).toMatch(/^HTTP\/1\.1 413 /);
      expect(declared).toContain('"setting":"TRPC_REQUEST_BODY_BYTES"');
    }
    // Read up to the bound (a sign-in reads its body), then 413 and the rest discarded.
    const chunked = await sendAllThenRead("/api/auth/sign-in/email", 64 * MiB, "transfer-encoding: chunked\r\n");
    expect(chunked).toMatch(/^HTTP\/1\.1 413 /);
    expect(chunked).toContain("AUTH_REQUEST_BODY_BYTES");
    // Answered before reading (no token), the rest is discarded, not kept: the answer arrives.
    const mcp = await sendAllThenRead("/mcp", 16 * MiB, "transfer-encoding: chunked\r\n");
    expect(mcp).toMatch(/^HTTP\/1\.1 (401|413) /);
    // 208 MiB were read and dropped as they came: a server keeping them would hold every
    // byte; dropped chunks wait only for the next collection.
    expect(peakMemory() - before).toBeLessThan(104 * MiB);
  });

  it("within the bound still reach their route", async () => {
    const answer = await post("/api/v1/tool-hosts/heartbeat", 1000);
    expect(answer.status).toBe(401); // read and answered by the route (no host token)
  });
});

describe("responses", () => {
  it("carry the security headers: no framing, a script nonce, nosniff, a referrer policy", async () => {
    const page = await fetch(`${app.url}/tools/catalog`);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}' 'strict-dynamic'/);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("referrer-policy")).toBe("same-origin");
    // Over plain HTTP no HSTS: a loopback console must not be pinned to HTTPS it does not serve.
    expect(page.headers.get("strict-transport-security")).toBeNull();
    const again = await fetch(`${app.url}/tools/catalog`);
    expect(again.headers.get("content-security-policy")).not.toBe(csp); // a new nonce per response
  });

  it("add HSTS when a trusted proxy says the client came over HTTPS, and only then", async () => {
    const proxied = await serveApp({ trustedProxies: ["127.0.0.1"] });
    try {
      const viaProxy = await fetch(`${proxied.url}/tools/catalog`, { headers: { "x-forwarded-proto": "https" } });
      expect(viaProxy.headers.get("strict-transport-security")).toMatch(/^max-age=\d+/);
    } finally {
      await proxied.close();
    }
    const spoofed = await fetch(`${app.url}/tools/catalog`, { headers: { "x-forwarded-proto": "https" } });
    expect(spoofed.headers.get("strict-transport-security")).toBeNull();
  });
});
