import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type CallToolResult, Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, describe, expect, it } from "vitest";
import { env } from "@/env";
import { SYSTEM } from "@/server/actor";
import { type DemoMcpServer, startEverythingServer } from "@/server/demo/everything-server";
import { type DemoToolHost, startDemoToolHost } from "@/server/demo/tool-host-launcher";
import { listApprovals } from "@/server/domain/call-policies/approval";
import { setToolCallPolicy } from "@/server/domain/call-policies/set-policy";
import { getTool, listTools } from "@/server/domain/catalog/queries";
import { applyDemoCallPolicies } from "@/server/domain/demo/call-policies";
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
  it("shows a live Source from a real MCP server, a failing Source with its previous Tools, a live SDK Tool Host process with Schema unsupported Tools and destructive Tools under confirm and approve, and one that registered once", async () => {
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
    expect(billing).toMatchObject({ kind: "sdk_tool_host", catalogState: "ok", toolCount: 7, compatibleToolCount: 5 });
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

    // Both paths a call that needs a person takes: voiding an invoice asks the agent's user to
    // confirm, refunding one waits for an approver.
    const policies = await listTools(SYSTEM, { sourceId: billing?.id });
    const policyOf = async (name: string) => {
      const tool = policies.items.find((t) => t.nativeName === name);
      return (await getTool(SYSTEM, { id: tool?.id as string })).callPolicy;
    };
    expect(await policyOf("void_invoice")).toMatchObject({ own: "confirm", policy: "confirm" });
    expect(await policyOf("refund_invoice")).toMatchObject({ own: "approve", policy: "approve" });
    expect(await policyOf("get_invoice")).toMatchObject({ own: null, policy: "none" });
    const finance = identities.find((i) => i.name === "Finance agent (demo)")!;
    const { value: financeToken } = await createToken(SYSTEM, { identityId: finance.id, name: "demo test" });
    const financeAgent = new Client({ name: "demo-test", version: "1" });
    await financeAgent.connect(
      new StreamableHTTPClientTransport(new URL(`${product.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${financeToken}` } },
      }),
    );
    try {
      const code = (r: unknown) =>
        ((r as CallToolResult).structuredContent as { error?: { code: string } }).error?.code;
      // This client declared no elicitation: told it cannot be asked, and what the operator can change.
      const voided = await financeAgent.callTool({ name: "void_invoice", arguments: { invoiceId: "inv_42" } });
      expect(code(voided)).toBe("CONFIRMATION_UNAVAILABLE");
      const refund = await financeAgent.callTool({
        name: "refund_invoice",
        arguments: { invoiceId: "inv_42", reason: "duplicate charge" },
      });
      expect(code(refund)).toBe("APPROVAL_PENDING");
      const pending = await listApprovals(SYSTEM);
      expect(pending.pending.map((p) => `${p.identityName}:${p.toolName}`)).toContain(
        "Finance agent (demo):refund_invoice",
      );
      // A client that can ask its user is asked, and on a yes the host voids the invoice.
      const asking = new Client(
        { name: "demo-test-asking", version: "1" },
        { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { form: {} } } },
      );
      let question = "";
      asking.setRequestHandler("elicitation/create", async (request) => {
        question = (request.params as { message: string }).message;
        return { action: "accept", content: { confirm: true } };
      });
      await asking.connect(
        new StreamableHTTPClientTransport(new URL(`${product.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${financeToken}` } },
        }),
      );
      const confirmed = (await asking.callTool({
        name: "void_invoice",
        arguments: { invoiceId: "inv_42" },
      })) as CallToolResult;
      await asking.close();
      expect(question).toContain('void_invoice of the Source "Billing service (demo)"');
      expect((confirmed.content[0] as { text: string }).text).toBe("Invoice inv_42 voided; the customer was told.");
    } finally {
      await financeAgent.close();
    }
    // Applied once: an operator's later change stands on the next start.
    const voidTool = policies.items.find((t) => t.nativeName === "void_invoice")!;
    await setToolCallPolicy(SYSTEM, { toolId: voidTool.id, policy: "none" });
    await applyDemoCallPolicies();
    expect(await policyOf("void_invoice")).toMatchObject({ own: "none" });

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
  }, 180_000);
});
