/**
 * How answers Quartermaster (or whatever stands in front of it) gives become errors a host
 * can act on: a small HTTP server on loopback plays the answers the SDK cannot provoke from
 * today's product (its own checks refuse first), e.g. a newer server with a lower limit.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostApi } from "./api.ts";
import { AuthenticationError, RegistrationError, type ToolHostError } from "./errors.ts";

let answer: { status: number; body: string; type?: string } = { status: 200, body: "{}" };
const seen: { url: string; headers: http.IncomingHttpHeaders }[] = [];
let server: http.Server;
let base = "";
beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? "", headers: req.headers });
    req.resume();
    res.writeHead(answer.status, { "content-type": answer.type ?? "application/json" }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/qm/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const api = () => new HostApi(base, "qm_host_secret");
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as ToolHostError,
  );

describe("the Tool Host API client", () => {
  it("sends the token and its version to the API under the given base path", async () => {
    answer = { status: 200, body: JSON.stringify({ calls: [] }) };
    expect(await api().collect(0, 4)).toEqual([]);
    const last = seen.at(-1);
    expect(last?.url).toBe("/qm/api/v1/tool-hosts/calls/next?wait=0&max=4");
    expect(last?.headers.authorization).toBe("Bearer qm_host_secret");
    expect(last?.headers["user-agent"]).toMatch(/^quartermaster-tool-host\/\d+\.\d+\.\d+ node\//);
  });

  it("surfaces a server's 422 as a RegistrationError naming the Tool and the limit, not found locally", async () => {
    answer = {
      status: 422,
      body: JSON.stringify({
        code: "TOOL_SCHEMA_TOO_LARGE",
        message:
          "Tool \"fat\"'s input schema is 9.0 KiB (9,216 bytes); an SDK Tool's input schema may be at most 8.0 KiB (8,192 bytes).",
        details: { tool: "fat", measured: 9216, limit: 8192, unit: "bytes" },
      }),
    };
    const error = await failure(api().register('{"tools":[]}'));
    expect(error).toBeInstanceOf(RegistrationError);
    expect(error).toMatchObject({ code: "TOOL_SCHEMA_TOO_LARGE", status: 422, local: false, retryable: false });
    expect((error as RegistrationError).tool).toBe("fat");
    expect((error as RegistrationError).limit).toBe(8192);

    answer = {
      status: 413,
      body: JSON.stringify({ code: "REQUEST_BODY_TOO_LARGE", message: "too large", details: { limit: 1 } }),
    };
    expect(await failure(api().register("{}"))).toMatchObject({ name: "RegistrationError", status: 413 });
  });

  it("tells a refused token from a restarting server from an unreachable one", async () => {
    answer = { status: 401, body: JSON.stringify({ code: "UNAUTHENTICATED", message: "Send the token." }) };
    expect(await failure(api().heartbeat())).toBeInstanceOf(AuthenticationError);

    answer = { status: 503, body: JSON.stringify({ code: "INTERNAL", message: "Restarting." }) };
    expect(await failure(api().heartbeat())).toMatchObject({ code: "INTERNAL", status: 503, retryable: true });

    // A proxy's HTML page while Quartermaster is down.
    answer = { status: 502, body: "<html>Bad gateway</html>", type: "text/html" };
    expect(await failure(api().heartbeat())).toMatchObject({ code: "HTTP_502", retryable: true });

    const closed = new HostApi("http://127.0.0.1:1", "t");
    expect(await failure(closed.heartbeat())).toMatchObject({ code: "UNREACHABLE", retryable: true });

    answer = { status: 404, body: "not here", type: "text/plain" };
    expect(await failure(api().heartbeat())).toMatchObject({ code: "HTTP_404", retryable: false });
  });

  it("refuses an address that is not http(s)", () => {
    expect(() => new HostApi("ftp://example.com", "t")).toThrow(/http\(s\)/);
  });
});
