/**
 * An agent as /mcp meets it, in plain JSON-RPC over HTTP (no SDK client, so these tests
 * read the same whichever SDK the route is built on): an identity holding some Sources,
 * its token, and tools/call.
 */
import { operator } from "./catalog";

let k = 0;
/** An identity holding the given Sources, and an agent token for it. */
export async function agentFor(sourceIds: string[]) {
  const api = await operator();
  const identity = await api.identities.create({ name: `agent-${++k}-${Date.now()}` });
  for (const sourceId of sourceIds) await api.identities.assignSource({ identityId: identity.id, sourceId });
  const { value: token, token: row } = await api.identities.createToken({ identityId: identity.id, name: "test" });
  return { api, identity, token, tokenId: row.id };
}

export { callTool, type RpcAnswer } from "./mcp-rpc";
