/**
 * Demo data for `npm start`: people with each role, a live Source (a real MCP server
 * from npm on loopback), a Source whose last check failed while its previous Tools stay
 * listed, and an SDK Tool Host with Tools a model cannot take. Everything is made through
 * the same domain functions operators use, so the audit log tells how it came to be.
 * Runs once, on a new database.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "@/env";
import { SYSTEM } from "../../actor";
import { getDb } from "../../db";
import { createApiKey } from "../api-keys/api-keys";
import { runCatalogCheck } from "../catalog/check";
import { assignSource, createIdentity } from "../identities/identities";
import { createToken } from "../identities/tokens";
import { createMcpConnection, createToolHost, updateSource } from "../sources/sources";
import { authenticateToolHost, registerTools } from "../sources/tool-hosts";
import { readSetting, writeSetting } from "../system/settings";
import { createUser, ensureAdmin } from "../users/users";
import { seedMemoryDemo } from "./memory-seed";

export const DEMO_ADMIN_EMAIL = "admin@quartermaster.demo";

export interface DemoCredentials {
  email: string;
  password: string;
  /** An agent token of the Research agent, so /mcp can be tried at once. */
  agentToken?: string;
}

const credentialsFile = () => path.resolve(/*turbopackIgnore: true*/ env.QM_DATA_DIR, "demo-admin.json");

function saveDemoCredentials(creds: DemoCredentials): void {
  mkdirSync(path.dirname(credentialsFile()), { recursive: true, mode: 0o700 });
  writeFileSync(credentialsFile(), JSON.stringify(creds), { mode: 0o600 });
}

/**
 * The demo's secrets are generated per installation and kept beside the data (the database
 * holds only their hashes), so every start can print them again.
 */
function demoCredentials(): DemoCredentials {
  if (existsSync(credentialsFile())) return JSON.parse(readFileSync(credentialsFile(), "utf8")) as DemoCredentials;
  const creds = { email: DEMO_ADMIN_EMAIL, password: randomBytes(12).toString("base64url") };
  saveDemoCredentials(creds);
  return creds;
}

const BILLING_TOOLS = [
  {
    name: "create_invoice",
    description: "Create a draft invoice for a customer. Returns the invoice id and a link to review it.",
    inputSchema: {
      type: "object",
      properties: {
        customerId: { type: "string", description: "Customer id, e.g. cus_123" },
        lines: {
          type: "array",
          items: {
            type: "object",
            properties: { sku: { type: "string" }, quantity: { type: "integer", minimum: 1 } },
            required: ["sku", "quantity"],
          },
        },
        currency: { type: "string", enum: ["EUR", "USD", "GBP"] },
      },
      required: ["customerId", "lines"],
    },
  },
  {
    name: "get_invoice",
    description: "Read one invoice with its lines, totals and payment status.",
    inputSchema: { type: "object", properties: { invoiceId: { type: "string" } }, required: ["invoiceId"] },
  },
  {
    name: "list_customers",
    description: "List customers whose name or email matches a query, newest first.",
    inputSchema: {
      type: "object",
      properties: { query: { type: "string" }, limit: { type: "integer", maximum: 100 } },
    },
  },
  {
    name: "refund_payment",
    description: "Refund a payment in full or in part.",
    // A top-level "__" argument: kept in the catalog as Schema unsupported, never offered.
    inputSchema: {
      type: "object",
      properties: { paymentId: { type: "string" }, amount: { type: "number" }, __tenant: { type: "string" } },
      required: ["paymentId"],
    },
  },
  {
    name: "export_ledger",
    description: "Export ledger rows for a period as CSV.",
    // A root that is not an object: models call Tools with named arguments.
    inputSchema: { type: "array", items: { type: "string" } },
  },
];

/** Keeps the demo Sources pointed at this run's demo MCP server (its port changes per start). */
async function repointDemoSources(demoMcpUrl: string) {
  const db = await getDb();
  const ids = (await readSetting<{ everything?: string; wiki?: string }>("demo.sources")) ?? {};
  if (ids.everything) await db.source.updateMany({ where: { id: ids.everything }, data: { url: demoMcpUrl } });
  if (ids.wiki)
    await db.source.updateMany({ where: { id: ids.wiki }, data: { url: demoMcpUrl.replace(/\/mcp$/, "/wiki/mcp") } });
}

/**
 * Seeds a new database; on later starts returns the demo sign-in if this installation
 * is a demo, and null for a database that was never one (demo data never lands in an
 * installation that already holds real data).
 */
export async function seedDemo({
  firstRun,
  demoMcpUrl,
}: {
  firstRun: boolean;
  demoMcpUrl: string;
}): Promise<DemoCredentials | null> {
  if (await readSetting<boolean>("demo.seeded")) {
    await repointDemoSources(demoMcpUrl);
    return demoCredentials();
  }
  if (!firstRun) return null;
  const creds = demoCredentials();
  await ensureAdmin({ email: creds.email, password: creds.password, name: "Demo Admin" });
  const db = await getDb();
  const people = [
    { email: "olivia.operator@quartermaster.demo", name: "Olivia Operator", role: "operator" as const },
    { email: "carl.curator@quartermaster.demo", name: "Carl Curator", role: "curator" as const },
    { email: "vera.viewer@quartermaster.demo", name: "Vera Viewer", role: "viewer" as const },
  ];
  for (const person of people) {
    if (await db.user.findUnique({ where: { email: person.email } })) continue;
    await createUser(SYSTEM, { ...person, password: randomBytes(18).toString("base64url") });
  }
  await createApiKey(SYSTEM, { name: "CI pipeline (demo)", role: "operator" });

  // A live Source: the reference MCP server from npm.
  const everything = await createMcpConnection(SYSTEM, {
    name: "Everything (demo)",
    description:
      "The reference MCP server from npm (@modelcontextprotocol/server-everything), started on loopback by npm start.",
    url: demoMcpUrl,
    checkIntervalSeconds: 900,
  });
  await runCatalogCheck(everything.id, "create");

  // A Source whose last check failed: it worked, then its server moved; its Tools stay listed.
  const wiki = await createMcpConnection(SYSTEM, {
    name: "Team wiki (demo)",
    description:
      "Checked fine once; then its server moved, so its last check fails while the previous catalog stays active.",
    url: demoMcpUrl,
    checkIntervalSeconds: 3600,
  });
  await runCatalogCheck(wiki.id, "create");
  await updateSource(SYSTEM, { id: wiki.id, url: demoMcpUrl.replace(/\/mcp$/, "/wiki/mcp") });
  await runCatalogCheck(wiki.id, "manual");

  // An SDK Tool Host that registered once and then stopped sending heartbeats.
  const { hostToken } = await createToolHost(SYSTEM, {
    name: "Billing service (demo)",
    description: "An SDK Tool Host; it registered once and sends no heartbeats, so it goes silent after its timeout.",
    heartbeatTimeoutSeconds: 120,
  });
  const host = await authenticateToolHost(hostToken);
  if (host) await registerTools(host, { tools: BILLING_TOOLS });

  // Agent Identities holding them: the support agent loses the billing Tools once the host goes silent.
  const billingId = (
    await db.source.findUniqueOrThrow({ where: { name: "Billing service (demo)" }, select: { id: true } })
  ).id;
  const support = await createIdentity(SYSTEM, {
    name: "Support agent (demo)",
    description: "Answers customer tickets; reads invoices.",
    instructions: "You help customers with their invoices. Never refund without a human's approval.",
  });
  for (const sourceId of [everything.id, billingId]) await assignSource(SYSTEM, { identityId: support.id, sourceId });
  const research = await createIdentity(SYSTEM, {
    name: "Research agent (demo)",
    description: "Looks things up in the wiki and the reference server.",
  });
  for (const sourceId of [everything.id, wiki.id]) await assignSource(SYSTEM, { identityId: research.id, sourceId });
  const { value: agentToken } = await createToken(SYSTEM, { identityId: research.id, name: "Demo agent" });
  const withToken = { ...creds, agentToken };
  saveDemoCredentials(withToken);

  await seedMemoryDemo({ writer: research.id, reader: support.id });
  await writeSetting("demo.sources", { everything: everything.id, wiki: wiki.id });
  await writeSetting("demo.seeded", true);
  return withToken;
}
