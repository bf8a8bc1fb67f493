/**
 * The product's start and stop, as `npm start` runs it: migrations and demo seeding on
 * the first start only, request ids in responses and logs, secrets never logged, and a
 * graceful SIGTERM that releases the embedded database.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

// Beside the suite's own server (QM_E2E_PORT, its demo MCP server +1, security.spec +2), so
// checkouts testing side by side do not meet; this instance's demo MCP server takes +4.
const PORT = Number(process.env.QM_E2E_PORT ?? 3210) + 3;
const BASE = `http://127.0.0.1:${PORT}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "qm-lifecycle-"));
// A failing assertion must not leave an instance holding the port for the next run.
const started: ChildProcess[] = [];
test.afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill("SIGTERM");
  rmSync(dataDir, { recursive: true, force: true });
});

function start(level = "info"): { child: ChildProcess; output: () => string } {
  let out = "";
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      QM_DATA_DIR: dataDir,
      QM_DEMO: "1",
      NODE_ENV: "production",
      LOG_LEVEL: level,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  child.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  return { child, output: () => out };
}

async function waitHealthy(output: () => string) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`${BASE}/api/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`never became healthy:\n${output()}`);
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });
}

test("npm start migrates and seeds once, keeps requests out of the terminal unless at debug, logs with request ids, never logs secrets, and stops gracefully on SIGTERM", async () => {
  test.setTimeout(300_000);
  const first = start();
  await waitHealthy(first.output);
  // The banner comes once the demo's SDK Tool Host has registered, a moment after the app answers.
  await expect
    .poll(() => first.output(), { timeout: 30_000 })
    .toContain("Demo sign-in (admin): admin@quartermaster.demo / ");
  expect(first.output()).toContain('Demo SDK Tool Host (a live Source): "Billing service (demo)"');
  expect(first.output()).toContain('"msg":"migrations applied"');
  // The banner says how to sign in as each demo role, with a password that works.
  const people = JSON.parse(readFileSync(path.join(dataDir, "demo-admin.json"), "utf8")).people as {
    email: string;
    password: string;
    role: string;
  }[];
  expect(people.map((p) => p.role)).toEqual(["operator", "curator", "viewer"]);
  for (const p of people) expect(first.output()).toMatch(new RegExp(`Demo ${p.role}: +${p.email} / ${p.password}`));
  expect(existsSync(path.join(dataDir, "quartermaster.lock"))).toBe(true);

  // At the default level requests are not logged: the banner stays in view.
  const quiet = await fetch(`${BASE}/api/trpc/me.get`, { headers: { "x-request-id": "lifecycle-quiet-1" } });
  expect(quiet.headers.get("x-request-id")).toBe("lifecycle-quiet-1");
  await new Promise((r) => setTimeout(r, 500));
  expect(first.output()).not.toContain("lifecycle-quiet-1");
  const demoUrl = /Demo MCP server \(a live Source\): (\S+)/.exec(first.output())?.[1];
  expect(demoUrl).toBeTruthy();

  expect(await stop(first.child)).toBe(0);
  expect(first.output()).toContain('"msg":"stopped"');
  expect(existsSync(path.join(dataDir, "quartermaster.lock"))).toBe(false);
  // The demo MCP server went down with it.
  expect(
    await fetch(demoUrl as string).then(
      () => "up",
      () => "down",
    ),
  ).toBe("down");

  const password = JSON.parse(readFileSync(path.join(dataDir, "demo-admin.json"), "utf8")).password as string;
  const second = start("debug");
  await waitHealthy(second.output);
  expect(second.output()).not.toContain('"msg":"migrations applied"');
  await expect
    .poll(() => second.output(), { timeout: 30_000 })
    .toContain(`Demo sign-in (admin): admin@quartermaster.demo / ${password}`);
  // At debug, each request is logged with its id, and never a secret.
  const res = await fetch(`${BASE}/api/trpc/me.get`, {
    headers: { "x-request-id": "lifecycle-req-1", authorization: "Bearer qm_key_TOPSECRETVALUE" },
  });
  expect(res.status).toBe(401);
  expect(res.headers.get("x-request-id")).toBe("lifecycle-req-1");
  await expect.poll(() => second.output()).toContain('"requestId":"lifecycle-req-1"');
  expect(second.output()).not.toContain("TOPSECRETVALUE");
  // Signing in still works on the reopened database, and the demo was not seeded twice.
  const signIn = await fetch(`${BASE}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: BASE },
    body: JSON.stringify({ email: "admin@quartermaster.demo", password }),
  });
  expect(signIn.status).toBe(200);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const sources = await fetch(`${BASE}/api/trpc/sources.list`, { headers: { cookie } }).then((r) => r.json());
  expect(sources.result.data.json.map((s: { name: string }) => s.name).sort()).toEqual([
    "Billing service (demo)",
    "Everything (demo)",
    "Payroll export (demo)",
    "Team wiki (demo)",
  ]);
  // The demo agent's token, printed at every start, reaches the live demo Source through /mcp.
  const agentToken = /Demo agent at \S+ \(Research agent\): Authorization: Bearer (\S+)/.exec(second.output())?.[1];
  expect(agentToken).toMatch(/^qm_agent_/);
  const call = await fetch(`${BASE}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${agentToken}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "echo", arguments: { message: "hello from the demo" } },
    }),
  }).then((r) => r.json());
  expect(JSON.stringify(call.result.content)).toContain("hello from the demo");
  expect(await stop(second.child)).toBe(0);
});
