import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type CallToolResult, Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, describe, expect, it } from "vitest";
import { env } from "@/env";
import { SYSTEM } from "@/server/actor";
import { type DemoMcpServer, startEverythingServer } from "@/server/demo/everything-server";
import { type DemoToolHost, startDemoToolHost } from "@/server/demo/tool-host-launcher";
import { listTools } from "@/server/domain/catalog/queries";
import { type DemoCredentials, seedDemo } from "@/server/domain/demo/seed";
import { listIdentities } from "@/server/domain/identities/identities";
import { createToken } from "@/server/domain/identities/tokens";
import { listSources } from "@/server/domain/sources/sources";
import { authenticateToolHost } from "@/server/domain/sources/tool-hosts";
import { withTestDatabase } from "../helpers/db";
import { type ProductServer, startProduct } from "../helpers/product-server";

withTestDatabase();
let demo: DemoMcpServer | undefined;
let product: ProductServer | undefined;
let host: DemoToolHost | null = null;
afterAll(async () => {
  await host?.stop();
  await product?.close();
  await demo?.stop();
});

describe("demo data", () => {
  it("shows a live Source from a real MCP server, a failing Source with its previous Tools, a live SDK Tool Host process with Schema unsupported Tools, and one that registered once", async () => {
    demo = await startEverythingServer();
    const creds = await seedDemo({ firstRun: true, demoMcpUrl: demo.url });
    expect(creds?.email).toBe("admin@quartermaster.demo");
    expect(creds?.billingHostToken).toMatch(/^qm_host_/);

    // The demo's SDK Tool Host is its own process, built with the SDK; it registers its Tools itself.
    product = await startProduct();
    host = await startDemoToolHost({ url: product.url, token: creds!.billingHostToken! });
    expect(host).not.toBeNull();

    const sources = Object.fromEntries((await listSources(SYSTEM, {})).map((s) => [s.name, s]));
    const everything = sources["Everything (demo)"];
    expect(everything).toMatchObject({ catalogState: "ok", kind: "mcp_connection" });
    expect(everything?.toolCount).toBeGreaterThan(5);
    const tools = await listTools(SYSTEM, { sourceId: everything?.id });
    expect(tools.items.map((t) => t.nativeName)).toContain("echo");

    const wiki = sources["Team wiki (demo)"];
    expect(wiki).toMatchObject({ catalogState: "failing", lastFailure: { code: "CATALOG_HTTP_ERROR" } });
    expect(wiki?.toolCount).toBe(everything?.toolCount);

    const billing = sources["Billing service (demo)"];
    expect(billing).toMatchObject({ kind: "sdk_tool_host", catalogState: "ok", toolCount: 5, compatibleToolCount: 3 });
    const unsupported = await listTools(SYSTEM, { sourceId: billing?.id, state: "schema_unsupported" });
    expect(unsupported.items.map((t) => t.nativeName)).toEqual(["refund_payment"]);
    const notObject = await listTools(SYSTEM, { sourceId: billing?.id, state: "input_not_object" });
    expect(notObject.items.map((t) => t.nativeName)).toEqual(["export_ledger"]);
    expect(sources["Payroll export (demo)"]).toMatchObject({ kind: "sdk_tool_host", toolCount: 2 });
    // A new operator meets the review queue: one payroll Tool changed into instructions for the model.
    const awaiting = await listTools(SYSTEM, { state: "awaiting_review" });
    expect(awaiting.items.map((t) => `${t.sourceName}:${t.nativeName}`)).toEqual([
      "Payroll export (demo):export_payslips",
    ]);

    const identities = await listIdentities(SYSTEM, {});
    expect(identities.map((i) => `${i.name}:${i.sources}:${i.state}`).sort()).toEqual([
      "Finance agent (demo):2:ok",
      "Research agent (demo):2:ok",
      "Support agent (demo):2:ok",
    ]);
    expect(identities.every((i) => i.tools >= 4)).toBe(true);

    // The support agent's call reaches the demo host's process and comes back.
    const support = identities.find((i) => i.name === "Support agent (demo)")!;
    const { value: token } = await createToken(SYSTEM, { identityId: support.id, name: "demo test" });
    const client = new Client({ name: "demo-test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${product.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const answer = (await client.callTool({
        name: "get_invoice",
        arguments: { invoiceId: "inv_42" },
      })) as CallToolResult;
      expect(answer.isError).toBeFalsy();
      expect((answer.content[0] as { text: string }).text).toMatch(
        /^Invoice inv_42 for cus_102, .*: 440\.00 EUR, paid\./,
      );
    } finally {
      await client.close();
    }

    // A later start on the same database seeds nothing again and repoints the live Source.
    const again = await seedDemo({ firstRun: false, demoMcpUrl: "http://127.0.0.1:1/mcp" });
    expect(again).toEqual(creds);
    const after = await listSources(SYSTEM, {});
    expect(after).toHaveLength(4);
    expect(after.find((s) => s.name === "Everything (demo)")?.url).toBe("http://127.0.0.1:1/mcp");

    // A demo seeded before its SDK Tool Host was a process has no host token on file: it gets one, once.
    await host?.stop();
    host = null;
    const file = path.resolve(env.QM_DATA_DIR, "demo-admin.json");
    const { billingHostToken: old, ...older } = JSON.parse(readFileSync(file, "utf8")) as DemoCredentials;
    writeFileSync(file, JSON.stringify(older));
    const upgraded = await seedDemo({ firstRun: false, demoMcpUrl: demo.url });
    expect(upgraded?.billingHostToken).toMatch(/^qm_host_/);
    expect(upgraded?.billingHostToken).not.toBe(old);
    expect(await authenticateToolHost(upgraded!.billingHostToken!)).toMatchObject({ name: "Billing service (demo)" });
    expect(await authenticateToolHost(old!)).toBeNull();
    expect(await seedDemo({ firstRun: false, demoMcpUrl: demo.url })).toEqual(upgraded);
  });
});
