/**
 * The /mcp route benchmark's Sources, in a process of their own as real ones would be:
 *
 *   - a loopback MCP server (2025-06-18, with sessions, as most deployed servers are) with one
 *     Tool, bench_echo;
 *   - an SDK server of every revision, stateless, holding 500 Tools served in one page (the
 *     listing and greeting lines: initialize, server/discover, tools/list);
 *
 * and in front of each the bare pass-through proxy that is the floor of any gateway's extra
 * hop: a few lines of node:http forwarding each request unchanged.
 * Prints `<echo url> <echo proxy url> <catalog url> <catalog proxy url>` on its first line.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { simpleTool, startLegacyServer, startSdkServer } from "../tests/helpers/mcp-servers";

const LISTED_TOOLS = 500;

const source = await startLegacyServer({
  tools: [simpleTool("bench_echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } })],
  onCall: (_name, args) => ({ content: [{ type: "text", text: `echo: ${String(args.text)}` }] }),
});
// Tools shaped like a service's: a verb on an object, a sentence, three parameters.
const catalog = Array.from({ length: LISTED_TOOLS }, (_, i) =>
  simpleTool(`bench_tool_${i}`, {
    description: `Updates record ${i} of the bench service: sets its title and state, and notes who changed it.`,
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "string", description: "the record's id" },
        title: { type: "string", description: "the new title" },
        state: { type: "string", enum: ["open", "closed"], description: "the new state" },
      },
      required: ["id"],
    },
  }),
);
const lister = await startSdkServer({ catalog: () => catalog, pageSize: LISTED_TOOLS });

async function passThrough(url: string): Promise<string> {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true });
  const proxy = http.createServer((req, res) => {
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${target.pathname}`;
}

console.log([source.url, await passThrough(source.url), lister.url, await passThrough(lister.url)].join(" "));
process.on("SIGTERM", () => process.exit(0));
