/**
 * The demo's live Source is a real MCP server beside the app. Whatever its Tools do, an
 * agent holding them must learn nothing of the app's configuration and reach nothing
 * past the network policy; and nobody but loopback, non-browser clients may reach it.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DemoMcpServer, startEverythingServer } from "@/server/demo/everything-server";
import { callOfferedTool } from "@/server/domain/agent-tools/call";
import { listOfferedTools } from "@/server/domain/agent-tools/list";
import { seedDemo } from "@/server/domain/demo/seed";
import { authenticateAgentToken } from "@/server/domain/identities/tokens";
import { withTestDatabase } from "../helpers/db";

withTestDatabase();

// Values the app's own environment holds; none may come back from any demo Tool.
const SECRETS = {
  QM_BOOTSTRAP_API_KEY: "qm-canary-bootstrap-key-0123456789abcdef0123456789",
  DATABASE_URL_CANARY: "postgres://canary:hunter2-canary@db.internal/qm",
};
let demo: DemoMcpServer;
const fetched: string[] = [];
let canary: http.Server;
let canaryUrl: string;

beforeAll(async () => {
  Object.assign(process.env, SECRETS);
  canary = http.createServer((req, res) => {
    fetched.push(req.url ?? "");
    res.end("canary file");
  });
  await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
  canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}/secret.txt`;
  demo = await startEverythingServer();
});
afterAll(async () => {
  for (const name of Object.keys(SECRETS)) delete process.env[name];
  await demo?.stop();
  canary?.close();
});

/** Arguments for every property of a JSON Schema: URLs point at the canary server. */
function argumentsFor(schema: Record<string, unknown>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, p] of Object.entries(properties)) {
    if (Array.isArray(p.enum)) args[name] = p.enum[0];
    else if (p.type === "string") args[name] = p.format === "uri" || /url|uri|data/i.test(name) ? canaryUrl : "demo";
    else if (p.type === "number" || p.type === "integer") args[name] = 1;
    else if (p.type === "boolean") args[name] = true;
    else if (p.type === "array") args[name] = [];
    else if (p.type === "object") args[name] = {};
  }
  return args;
}

describe("the demo MCP server", () => {
  it("gives a demo agent that calls every demo Tool no secret of the app and no way to fetch a URL", async () => {
    const creds = await seedDemo({ firstRun: true, demoMcpUrl: demo.url });
    const agent = await authenticateAgentToken(creds?.agentToken as string);
    if (!agent) throw new Error("the demo agent token does not authenticate");
    const { tools } = await listOfferedTools(agent);
    const live = tools.filter((t) => !t.name.startsWith("team_wiki"));
    expect(live.map((t) => t.name)).toContain("echo");

    const answers: string[] = [];
    for (const tool of live) {
      const { result } = await callOfferedTool(agent, { name: tool.name, arguments: argumentsFor(tool.inputSchema) });
      answers.push(JSON.stringify(result));
    }
    const everything = answers.join("\n");
    expect(everything).toContain("demo"); // the calls did reach the server (echo answered)
    for (const secret of [...Object.values(SECRETS), process.env.QM_SECRET as string]) {
      expect(everything).not.toContain(secret);
    }
    expect(fetched).toEqual([]);
  });

  it("runs with nothing of the app's environment but PATH and PORT", () => {
    const environ = readFileSync(`/proc/${demo.pid}/environ`, "utf8").split("\0").filter(Boolean);
    // NODE_CHANNEL_* is Node's own IPC channel to the parent, which stops it when the app goes.
    const names = environ.map((e) => e.split("=")[0]).filter((n) => !n?.startsWith("NODE_CHANNEL_"));
    expect(names.sort()).toEqual(["PATH", "PORT"]);
  });

  it("listens on loopback only and refuses browser requests (no CORS)", async () => {
    const port = new URL(demo.url).port;
    const other = await fetch(`http://127.0.0.2:${port}/mcp`, { method: "POST" }).then(
      (r) => `HTTP ${r.status}`,
      (e: Error & { cause?: { code?: string } }) => e.cause?.code,
    );
    expect(other).toBe("ECONNREFUSED");
    const fromPage = await fetch(demo.url, {
      method: "POST",
      headers: { origin: "http://attacker.test", "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
    });
    expect(fromPage.status).toBe(403);
    expect(fromPage.headers.get("access-control-allow-origin")).toBeNull();
  });
});
