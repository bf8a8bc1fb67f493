/**
 * The /mcp route benchmark's Source, in a process of its own as a real one would be: a
 * loopback MCP server (2025-06-18, with sessions, as most deployed servers are) with one
 * Tool, bench_echo, and beside it the bare pass-through proxy that is the floor of any
 * gateway's extra hop: a few lines of node:http forwarding each request unchanged.
 * Prints `<source url> <proxy url>` on its first line.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { simpleTool, startLegacyServer } from "../tests/helpers/mcp-servers";

const source = await startLegacyServer({
  tools: [simpleTool("bench_echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } })],
  onCall: (_name, args) => ({ content: [{ type: "text", text: `echo: ${String(args.text)}` }] }),
});
const target = new URL(source.url);
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
const { port } = proxy.address() as AddressInfo;
console.log(`${source.url} http://127.0.0.1:${port}/mcp`);
process.on("SIGTERM", () => process.exit(0));
