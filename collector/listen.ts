import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type H3 } from 'h3';
import { deferContinue } from './http/expectContinue';

/**
 * Serves a collector app on `host`:`port` (0: any free port) over HTTP/1.1, or HTTPS with `tls`;
 * resolves once it listens, with its URL and the server to close.
 *
 * @example
 * const { url, server } = await listen(createCollector(options), { port: 0, host: '127.0.0.1' });
 */
export const listen = async (app: H3, { port, host, tls }: { port: number; host: string; tls?: { cert: string; key: string } | undefined }) => {
  const server = serve(app, {
    port,
    hostname: host,
    silent: true,
    gracefulShutdown: false,
    tls,
    // HTTPS as HTTP/1.1: srvx would serve HTTP/2, whose sessions a browser keeps open and Node's
    // server.close() then waits on for ever; HTTP/1.1 connections close when idle (see shutdown).
    // A client gets 10 s to send its headers and its whole request: slow or stalled clients
    // (slowloris) are cut off instead of holding connections (Node's defaults are 60 s and 300 s).
    // Node checks those timeouts every connectionsCheckingInterval (30 s by default): every second here.
    node: { http2: false, headersTimeout: 10_000, requestTimeout: 10_000, connectionsCheckingInterval: 1_000 },
  });
  const nodeServer = server.node?.server as (HttpServer & { httpAllowHalfOpen?: boolean }) | undefined;
  if (nodeServer && server.node?.handler) deferContinue(nodeServer, server.node.handler);
  // A client that ends its sending side once the body is sent (shutdown(SHUT_WR)) still gets its
  // answer, which comes only after the commit (on the writer thread): Node would otherwise abort
  // the request and close the connection at its FIN. A half-closed connection is ended as
  // soon as its last answer is sent (Node's http server, socketOnEnd).
  if (nodeServer) nodeServer.httpAllowHalfOpen = true;
  await server.ready();
  const address = server.node?.server?.address() as AddressInfo;
  return { server, url: listenUrl({ host, port: address.port, tls }) };
};

/**
 * The URL a collector listening on `host`:`port` is reached at.
 *
 * @example
 * listenUrl({ host: '::1', port: 8787 }); // 'http://[::1]:8787'
 */
export const listenUrl = ({ host, port, tls }: { host: string; port: number; tls?: unknown }) =>
  `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
