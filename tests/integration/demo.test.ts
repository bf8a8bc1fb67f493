import { afterAll, describe, expect, it } from "vitest";
import { SYSTEM } from "@/server/actor";
import { type DemoMcpServer, startEverythingServer } from "@/server/demo/everything-server";
import { listTools } from "@/server/domain/catalog/queries";
import { seedDemo } from "@/server/domain/demo/seed";
import { listIdentities } from "@/server/domain/identities/identities";
import { listSources } from "@/server/domain/sources/sources";
import { withTestDatabase } from "../helpers/db";

withTestDatabase();
let demo: DemoMcpServer | undefined;
afterAll(async () => {
  await demo?.stop();
});

describe("demo data", () => {
  it("shows a live Source from a real MCP server, a failing Source with its previous Tools, and Schema unsupported Tools", async () => {
    demo = await startEverythingServer();
    const creds = await seedDemo({ firstRun: true, demoMcpUrl: demo.url });
    expect(creds?.email).toBe("admin@quartermaster.demo");

    const sources = Object.fromEntries((await listSources(SYSTEM)).map((s) => [s.name, s]));
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

    const identities = await listIdentities(SYSTEM);
    expect(identities.map((i) => `${i.name}:${i.sources}:${i.state}`).sort()).toEqual([
      "Research agent (demo):2:ok",
      "Support agent (demo):2:ok",
    ]);
    expect(identities.every((i) => i.tools > 5)).toBe(true);

    // A later start on the same database seeds nothing again and repoints the live Source.
    const again = await seedDemo({ firstRun: false, demoMcpUrl: "http://127.0.0.1:1/mcp" });
    expect(again).toEqual(creds);
    const after = await listSources(SYSTEM);
    expect(after).toHaveLength(3);
    expect(after.find((s) => s.name === "Everything (demo)")?.url).toBe("http://127.0.0.1:1/mcp");
  });
});
