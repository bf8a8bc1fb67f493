/**
 * The setting the SDK Tool Host tests share: the product on real HTTP (started before the
 * file's tests, closed after them with everything they opened), an SDK Tool Host Source
 * with its token, and an Agent Identity holding it with a real MCP client signed in to /mcp.
 * Each file keeps its own SDK host factory: what it logs and how it backs off differ.
 */
import { Client, type ClientOptions, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll } from "vitest";
import { operator } from "./catalog";
import { withTestDatabase } from "./db";
import { type ProductServer, startProduct } from "./product-server";

export function toolHostWorld(prefix: string) {
  const database = withTestDatabase();
  const cleanup: (() => Promise<unknown>)[] = [];
  let product: ProductServer | undefined;
  beforeAll(async () => {
    product = await startProduct();
    cleanup.push(() => (product as ProductServer).close());
  });
  afterAll(async () => {
    for (const close of cleanup.reverse()) await close().catch(() => {});
  });

  let n = 0;
  const unique = (name: string) => `${name}_${++n}`;
  const url = () => {
    if (!product) throw new Error("the product is started in beforeAll");
    return product.url;
  };

  /** An SDK Tool Host Source in the catalog, with its token; no SDK host is started. */
  async function newHostSource(heartbeatTimeoutSeconds = 60) {
    const api = await operator();
    const { source, hostToken } = await api.sources.createToolHost({
      name: unique(`${prefix}-host`),
      heartbeatTimeoutSeconds,
    });
    return { api, source, hostToken };
  }

  /** An Agent Identity holding the Source, its token, and a real MCP client signed in with it (at `mcpUrl`, else this product's /mcp). */
  async function agentFor(sourceId: string, mcpUrl?: string, clientOptions?: ClientOptions) {
    const api = await operator();
    const identity = await api.identities.create({ name: unique(`${prefix}-agent`) });
    await api.identities.assignSource({ identityId: identity.id, sourceId });
    const { value: token } = await api.identities.createToken({ identityId: identity.id, name: "test" });
    const client = new Client({ name: `${prefix}-agent`, version: "1" }, clientOptions);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(mcpUrl ?? `${url()}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    cleanup.push(() => client.close());
    return { client, identityId: identity.id, token };
  }

  /** On PostgreSQL, the test database's URL, for another app instance to open. */
  const databaseUrl = () => database.url();

  return { url, cleanup, unique, newHostSource, agentFor, databaseUrl };
}
