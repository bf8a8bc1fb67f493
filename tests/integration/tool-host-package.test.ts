/**
 * @quartermaster/tool-host as an outside developer gets it (issue 32, "How it is checked"):
 * the tarball `npm pack` makes from the built SDK, installed with npm into fresh projects
 * outside this repository — a default `npm init` (CommonJS) one and an ES module one — and,
 * in the latter, the README's first snippet run as written (tsx, its URL and token from the
 * environment it names) against the app's own routes on a loopback port: registered, called
 * by a real MCP client through /mcp, closed by SIGTERM as the snippet wires it.
 *
 * No registry is asked: zod is packed from this checkout's own copy, so `npm install
 * --offline` installs two local tarballs, as the README's tarball install does.
 */
import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { type CallToolResult, Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { operator } from "../helpers/catalog";
import { withTestDatabase } from "../helpers/db";
import { type ProductServer, startProduct } from "../helpers/product-server";
import { ROOT } from "../helpers/spawn-server";

const run = promisify(execFile);
const SDK = path.join(ROOT, "sdk");
const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");

// npm run from vitest (through npx) passes its own npm_* settings on; a developer's shell has none.
const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)),
) as NodeJS.ProcessEnv;
const npmVersion = spawnSync("npm", ["--version"], { env: cleanEnv, encoding: "utf8" });
const npmMissing = npmVersion.status !== 0;
if (npmMissing)
  console.warn(`tool-host-package: skipped, npm is not available (${npmVersion.error?.message ?? npmVersion.stderr})`);

const npm = (cwd: string, ...args: string[]) =>
  run("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd, env: cleanEnv, timeout: 60_000 });

withTestDatabase();
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of cleanup.reverse()) await close().catch(() => {});
});

let work: string;
let sdkTarball: string;
let zodTarball: string;
const version: string = JSON.parse(await readFile(path.join(SDK, "package.json"), "utf8")).version;

/** A fresh project beside the tarballs, as `npm init -y` makes it, with both installed from them. */
async function project(name: string, type?: "module") {
  const dir = path.join(work, name);
  await mkdir(dir, { recursive: true });
  await npm(dir, "init", "-y");
  if (type) await npm(dir, "pkg", "set", `type=${type}`);
  await npm(dir, "install", "--offline", sdkTarball, zodTarball);
  return dir;
}

describe.skipIf(npmMissing)("the packed @quartermaster/tool-host, installed outside this repository", () => {
  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), "qm-tool-host-package-"));
    cleanup.push(() => rm(work, { recursive: true, force: true }));
    const packed = async (from: string) => {
      const { stdout } = await npm(ROOT, "pack", from, "--pack-destination", work, "--json");
      return path.join(work, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
    };
    sdkTarball = await packed(SDK);
    zodTarball = await packed(path.join(ROOT, "node_modules", "zod"));
  }, 60_000);

  it("ships the built code, the sources its maps point at, and a README whose links stay inside the package", async () => {
    const { stdout } = await run("tar", ["-tzf", sdkTarball]);
    const files = new Set(stdout.split("\n").filter(Boolean));
    for (const file of ["dist/index.js", "dist/testing.js", "dist/index.d.ts", "README.md", "CHANGELOG.md"])
      expect(files, file).toContain(`package/${file}`);
    expect([...files].some((f) => f.endsWith(".test.ts"))).toBe(false);
    const maps = [...files].filter((f) => f.endsWith(".js.map"));
    expect(maps.length).toBeGreaterThan(0);
    await run("tar", ["-xzf", sdkTarball, "-C", work]);
    for (const map of maps) {
      const { sources } = JSON.parse(await readFile(path.join(work, map), "utf8")) as { sources: string[] };
      for (const source of sources)
        expect(files, `${map} → ${source}`).toContain(path.posix.join(path.posix.dirname(map), source));
    }
    const readme = await readFile(path.join(work, "package", "README.md"), "utf8");
    expect(readme.match(/\]\(\.\.\/[^)]*\)/g) ?? []).toEqual([]);
    expect(readme).toContain(`quartermaster-tool-host-${version}.tgz`);
  });

  it("loads with require() in a default (CommonJS) project on Node 22.12+, where the README's top-level await fails as it says", async () => {
    const dir = await project("cjs");
    expect(JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")).type ?? "commonjs").toBe("commonjs");
    const { stdout } = await run(
      process.execPath,
      [
        "-e",
        `const sdk = require("@quartermaster/tool-host");
         const { testToolHost } = require("@quartermaster/tool-host/testing");
         const zod = require("zod");
         console.log(JSON.stringify([typeof sdk.createToolHost, sdk.SDK_VERSION, typeof testToolHost, typeof zod.z.object]));`,
      ],
      { cwd: dir, env: cleanEnv },
    );
    // The version a stale sdk/dist would get wrong: the tarball must hold what was built from this source.
    expect(JSON.parse(stdout)).toEqual(["function", version, "function", "function"]);
    // Only one zod: the project's, which the SDK resolves as its peer.
    expect(await readdir(path.join(dir, "node_modules"))).toEqual(expect.arrayContaining(["zod", "@quartermaster"]));
    await expect(
      readdir(path.join(dir, "node_modules", "@quartermaster", "tool-host", "node_modules")),
    ).rejects.toThrow();

    await writeFile(
      path.join(dir, "host.ts"),
      'import { createToolHost } from "@quartermaster/tool-host";\nawait Promise.resolve(createToolHost);\n',
    );
    const failed = await run(process.execPath, [TSX, "host.ts"], { cwd: dir, env: cleanEnv }).catch(
      (e: { stderr: string }) => e,
    );
    expect((failed as { stderr: string }).stderr).toContain(
      'Top-level await is currently not supported with the "cjs" output format',
    );
  }, 60_000);

  it("runs the README's first snippet in an ES module project: it registers, an agent calls it through /mcp, and SIGTERM closes it", async () => {
    const dir = await project("esm", "module");
    const readme = await readFile(path.join(dir, "node_modules", "@quartermaster", "tool-host", "README.md"), "utf8");
    const snippet = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(snippet).toContain("host.serve()");
    await writeFile(path.join(dir, "invoicing.ts"), snippet);

    const product: ProductServer = await startProduct();
    cleanup.push(() => product.close());
    const api = await operator();
    const { source, hostToken } = await api.sources.createToolHost({ name: "Invoicing", heartbeatTimeoutSeconds: 60 });

    // As the snippet's first line says to run it: QM_URL=… QM_HOST_TOKEN=… npx tsx invoicing.ts
    const child: ChildProcess = spawn(process.execPath, [TSX, "invoicing.ts"], {
      cwd: dir,
      env: { ...cleanEnv, QM_URL: product.url, QM_HOST_TOKEN: hostToken },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    cleanup.push(async () => {
      if (child.exitCode === null) child.kill("SIGKILL");
    });
    await expect
      .poll(() => output, { timeout: 30_000, interval: 100 })
      .toContain(`Serving create_invoice, get_invoice, list_customers as Source ${source.id} (heartbeat every 20 s).`);

    // The agent's side as the README's step 3 and 4 set it up.
    const identity = await api.identities.create({ name: "billing-assistant" });
    await api.identities.assignSource({ identityId: identity.id, sourceId: source.id });
    const { value: agentToken } = await api.identities.createToken({ identityId: identity.id, name: "laptop" });
    const client = new Client({ name: "first-call", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", product.url), {
        requestInit: { headers: { authorization: `Bearer ${agentToken}` } },
      }),
    );
    cleanup.push(() => client.close());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["create_invoice", "get_invoice", "list_customers"]),
    );
    const result = (await client.callTool({
      name: "create_invoice",
      arguments: { customerId: "cus_101", lines: [{ sku: "SEAT-PRO", quantity: 3 }] },
    })) as CallToolResult;
    // What the README's agent snippet prints.
    expect(result.structuredContent).toEqual({
      invoiceId: "inv_43",
      total: 87,
      currency: "EUR",
      reviewUrl: "https://billing.example/invoices/inv_43",
    });
    const read = (await client.callTool({ name: "get_invoice", arguments: { invoiceId: "inv_43" } })) as CallToolResult;
    expect((read.content as { text: string }[])[0]?.text).toBe("Invoice inv_43: 87.00 EUR, draft.");

    // The snippet's SIGTERM handler closes the host: it says goodbye and the process ends by itself.
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    const db = await getDb();
    expect((await db.source.findUniqueOrThrow({ where: { id: source.id } })).hostSilentSince).not.toBeNull();
    const after = (await client.callTool({
      name: "create_invoice",
      arguments: { customerId: "cus_101", lines: [{ sku: "SUPPORT", quantity: 1 }] },
    })) as CallToolResult;
    expect(after.isError).toBe(true);
    expect((after.content as { text: string }[])[0]?.text).toMatch(/^TOOL_NOT_HELD: /);
  }, 60_000);
});
