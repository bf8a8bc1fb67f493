/**
 * The product as an attacker meets it: the console refuses to be framed and runs only its
 * own scripts; 100 MiB bodies do not grow the running process; and a process killed
 * outright (kill -9) leaves neither its data-folder lock nor its catalog check behind.
 * The last two start their own instance (as `npm start` runs it) to watch its memory and
 * to kill it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { type RunningServer, startRawServer } from "../tests/helpers/mcp-servers";
import { expect, test } from "./fixtures";

// Beside the port the suite's own server uses (QM_E2E_PORT), so parallel checkouts differ.
const PORT = Number(process.env.QM_E2E_PORT ?? 3210) + 2;
const BASE = `http://127.0.0.1:${PORT}`;
const API_KEY = `qm-e2e-security-${randomBytes(16).toString("hex")}`;
const MiB = 1024 * 1024;

test.describe("the console in a browser", () => {
  test("refuses to be framed by another site, and runs under its script policy without a violation", async ({
    page,
    baseURL,
  }) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to (execute|load)/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto("/tools/catalog");
    const headers = response?.headers() ?? {};
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("same-origin");
    // Hydrated and working: client-side navigation and the theme script both need scripts to run.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sources", exact: true }).click();
    await expect(page).toHaveURL(/\/tools\/sources$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(violations).toEqual([]);

    // A page elsewhere that frames the console gets nothing in the frame.
    await page.goto("about:blank");
    await page.setContent(`<iframe title="framed" src="${baseURL}/sign-in" width="800" height="600"></iframe>`);
    await page.waitForTimeout(1500);
    const framed = page.frames().find((f) => f !== page.mainFrame());
    const rendered = await framed
      ?.locator("input[name=email]")
      .count()
      .catch(() => 0);
    expect(rendered ?? 0).toBe(0);
  });
});

test.describe("editing a Connection", () => {
  test("moving its URL to another origin does not take its auth headers along unless the operator keeps them", async ({
    page,
  }) => {
    const name = `Headers ${randomBytes(2).toString("hex")}`;
    const source = await trpcAs(page, "sources.createMcpConnection", {
      name,
      url: "http://127.0.0.1:9/mcp",
      headers: { Authorization: "Bearer e2e-secret" },
    });
    await page.goto(`/tools/sources/${source.id}`);
    await page.getByRole("button", { name: "Edit" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("URL").fill("http://127.0.0.2:9/mcp");
    const warning = dialog.getByTestId("headers-new-origin");
    await expect(warning).toContainText("The saved headers (Authorization) are not sent there");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(warning).toContainText("headers: the new URL is on another origin");
    expect((await trpcAs(page, "sources.get", { id: source.id }, "GET")).url).toBe("http://127.0.0.1:9/mcp");

    await warning.getByLabel("Send the saved headers to http://127.0.0.2:9").check();
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toHaveCount(0);
    expect((await trpcAs(page, "sources.get", { id: source.id }, "GET")).url).toBe("http://127.0.0.2:9/mcp");
  });
});

/** A tRPC call as the page's signed-in user. */
async function trpcAs(page: import("@playwright/test").Page, procedure: string, input: unknown, method = "POST") {
  const res =
    method === "GET"
      ? await page.request.get(`/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`)
      : await page.request.post(`/api/trpc/${procedure}`, { data: { json: input } });
  expect(res.status(), `${procedure}: ${await res.text()}`).toBe(200);
  return (await res.json()).result.data.json;
}

// ── Its own instance ──

const dataDir = mkdtempSync(path.join(os.tmpdir(), "qm-e2e-security-"));
let product: { child: ChildProcess; output: () => string } | undefined;
let slow: RunningServer | undefined;
test.afterAll(async () => {
  product?.child.kill("SIGKILL");
  await slow?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function start() {
  let out = "";
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      QM_DATA_DIR: dataDir,
      QM_DEMO: "0",
      QM_SCHEDULER: "0",
      QM_BOOTSTRAP_API_KEY: API_KEY,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  product = { child, output: () => out };
  return product;
}

async function healthy(running: { output: () => string }) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (
      await fetch(`${BASE}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`never became healthy:\n${running.output()}`);
}

async function trpc(procedure: string, input: unknown, options: { signal?: AbortSignal } = {}) {
  const query = procedure === "sources.checkProgress" || procedure === "sources.checks";
  const url = query
    ? `${BASE}/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`
    : `${BASE}/api/trpc/${procedure}`;
  const res = await fetch(url, {
    method: query ? "GET" : "POST",
    headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
    body: query ? undefined : JSON.stringify({ json: input }),
    signal: options.signal,
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`${procedure}: ${JSON.stringify(body)}`);
  return body.result.data.json;
}

/** Peak resident memory of a process (Linux), after resetting it to the current size. */
const peak = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) * 1024;
const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, "5");

/** POSTs `bytes` from one reused 64 KiB chunk; resolves with the status whenever the server answers. */
function postHuge(pathname: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, "a");
    const req = http.request(`${BASE}${pathname}`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(bytes) },
    });
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      res.resume();
      res.on("end", () => {
        req.destroy();
        resolve(res.statusCode ?? 0);
      });
    });
    // The server hangs up once it has answered; a write may fail just before the answer is read.
    req.on("error", (error) => {
      setTimeout(() => {
        if (!answered) reject(new Error(`${pathname}: ${error.message} after ${sent} bytes`));
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

test.describe
  .serial("a running instance", () => {
    test("keeps its data folder private, and 100 MiB sent to any route does not grow it", async () => {
      test.setTimeout(300_000);
      const running = start();
      await healthy(running);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(statSync(path.join(dataDir, "pglite")).mode & 0o777).toBe(0o700);

      const pid = running.child.pid as number;
      const routes = [
        "/api/auth/sign-in/email",
        "/api/trpc/sources.update",
        "/mcp",
        "/api/v1/tool-hosts/registration",
        "/api/v1/tool-hosts/calls/results",
        "/api/v1/tool-hosts/heartbeat",
        "/tools/catalog",
      ];
      // Each route answers once first: loading its code is not what is measured.
      for (const route of routes) await postHuge(route, 1000);
      for (const route of routes) {
        resetPeak(pid);
        const before = peak(pid);
        expect(await postHuge(route, 100 * MiB), route).toBe(413);
        expect(peak(pid) - before, route).toBeLessThan(8 * MiB);
      }
    });

    test("killed outright during a catalog check, it restarts at once and Check now is not held by the dead check", async () => {
      test.setTimeout(300_000);
      if (!product) throw new Error("the previous test starts the instance");
      let hang = true;
      slow = await startRawServer(() =>
        hang
          ? { hang: true }
          : { result: { tools: [{ name: "lookup", inputSchema: { type: "object", properties: {} } }] } },
      );
      const source = await trpc("sources.createMcpConnection", {
        name: `Slow ${randomBytes(2).toString("hex")}`,
        url: slow.url,
      });
      const abandoned = new AbortController();
      const first = trpc("sources.checkNow", { id: source.id }, { signal: abandoned.signal }).catch(() => null);
      await expect.poll(() => trpc("sources.checkProgress", { id: source.id }), { timeout: 20_000 }).not.toBeNull();

      product.child.kill("SIGKILL");
      await new Promise((resolve) => product?.child.once("exit", resolve));
      abandoned.abort();
      await first;
      hang = false;

      // The lock died with its holder: the restart does not wait and is not refused.
      const again = start();
      await healthy(again);
      const started = Date.now();
      const outcome = await trpc("sources.checkNow", { id: source.id });
      expect(outcome).toMatchObject({ status: "succeeded", tools: 1 });
      // Before, the dead check's 120 s lease had to run out first.
      expect(Date.now() - started).toBeLessThan(60_000);
      const history = await trpc("sources.checks", { id: source.id });
      expect(history.items.map((c: { status: string; failureMessage: string | null }) => c.failureMessage)).toContain(
        "Interrupted: Quartermaster stopped while this check was running.",
      );
    });
  });
