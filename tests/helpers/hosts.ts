import { SYSTEM } from "@/server/actor";
import { modelFacingDefinition } from "@/server/domain/catalog/validate-tool";
import { createToolHost } from "@/server/domain/sources/sources";
import { authenticateToolHost, registerTools } from "@/server/domain/sources/tool-hosts";

let n = 0;

/**
 * An SDK Tool Host that has registered `tools`; `register` publishes a new list. Under `trust`
 * unless told otherwise, as connectionTo (helpers/catalog.ts) says why.
 */
export async function hostWith(
  tools: unknown[],
  name = `host-${++n}-${Date.now()}`,
  reviewPolicy: "review" | "trust" = "trust",
) {
  const { source, hostToken } = await createToolHost(SYSTEM, { name, heartbeatTimeoutSeconds: 60, reviewPolicy });
  const host = await authenticateToolHost(hostToken);
  if (!host) throw new Error("host token did not authenticate");
  const register = (list: unknown[]) => registerTools(host, { tools: list });
  await register(tools);
  return { source, host, register };
}

/** `count` Tools whose model-facing definitions are each exactly `bytes` long. */
export function toolsOfModelBytes(count: number, bytes: number, prefix = "tool") {
  return Array.from({ length: count }, (_, i) => {
    const name = `${prefix}_${String(i).padStart(5, "0")}`;
    const make = (pad: string) => ({ name, description: pad, inputSchema: { type: "object" } });
    const base = Buffer.byteLength(modelFacingDefinition(make(""), name));
    return make("d".repeat(bytes - base));
  });
}
