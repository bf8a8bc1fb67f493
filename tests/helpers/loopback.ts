/** A node:http server on 127.0.0.1 at a free port, closed with its open connections (a held request must not keep a test's teardown waiting). */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface LoopbackServer {
  server: http.Server;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  origin: string;
  close(): Promise<void>;
}

export function closeWithConnections(server: http.Server): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

export async function listenOnLoopback(handler: http.RequestListener): Promise<LoopbackServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, close: closeWithConnections(server) };
}
