/** A node:http server on 127.0.0.1 at a free port, closed with its open connections (a held request must not keep a test's teardown waiting). */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import tls from "node:tls";

export interface LoopbackServer {
  server: http.Server | https.Server;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  origin: string;
  close(): Promise<void>;
}

export function closeWithConnections(server: http.Server | https.Server): () => Promise<void> {
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

/**
 * The same on HTTPS, with a certificate for 127.0.0.1 made for this run (openssl) and trusted
 * by this process's TLS clients only: what a server that must be fetched over https (an
 * OAuth client's metadata document) looks like, without a public name.
 */
export async function listenOnLoopbackHttps(handler: http.RequestListener): Promise<LoopbackServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "qm-tls-"));
  const key = path.join(dir, "key.pem");
  const cert = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
      ...["-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1"],
      ...["-addext", "subjectAltName=IP:127.0.0.1"],
    ],
    { stdio: "ignore" },
  );
  const pem = readFileSync(cert, "utf8");
  tls.setDefaultCACertificates([...tls.getCACertificates("default"), pem]);
  const server = https.createServer({ key: readFileSync(key), cert: pem }, handler);
  rmSync(dir, { recursive: true, force: true });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `https://127.0.0.1:${port}`, close: closeWithConnections(server) };
}
