import type { Server as HttpServer, IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve, type H3 } from 'h3';
import { deferContinue } from './http/expectContinue';

/**
 * How long a client has, from the moment its connection is accepted, to send a request's headers
 * (and, with its body, the whole request: Node's requestTimeout): slow or stalled clients
 * (slowloris) are cut off instead of holding connections (Node's defaults are 60 s and 300 s).
 */
export const HEADERS_TIMEOUT_MS = 10_000;

/**
 * How long a keep-alive connection may sit idle after an answer before it is closed (Node's
 * default too, now stated): long enough for a page's next beacon or the dashboard's next read to
 * reuse it, short enough that idle clients do not pile up. A proxy keeping upstream connections
 * open must close them sooner (README, "Several collectors on PostgreSQL": nginx `keepalive_timeout`).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/**
 * The open connections one client address may hold by default (`serve --max-connections-per-client`).
 * A browser opens at most 6 per host over HTTP/1.1; well beyond that is a client holding
 * connections on purpose, which would otherwise use up the process's file descriptors.
 */
export const DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 64;

/** Options of `listen()`. */
export interface ListenOptions {
  /** 0: any free port. */
  port: number;
  host: string;
  /** Serve HTTPS with this certificate and key (PEM file paths). */
  tls?: { cert: string; key: string } | undefined;
  /**
   * Open connections allowed per client address, counted by the socket's address (behind a proxy,
   * the proxy's): the next one is closed at once. 0 turns the cap off. Default 64.
   */
  maxConnectionsPerClient?: number | undefined;
  /** Default HEADERS_TIMEOUT_MS; tests shorten it. */
  headersTimeoutMs?: number | undefined;
  /** Default KEEP_ALIVE_TIMEOUT_MS; tests shorten it. */
  keepAliveTimeoutMs?: number | undefined;
}

/** What Node's own http server sends a client whose headers did not arrive in time. */
const REQUEST_TIMEOUT_ANSWER = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

/** The client's address, an IPv4 client of a dual-stack socket as the IPv4 address. */
/**
 * How long before Node's own headers timeout (the same bound) a first request's ends here: Node's
 * checker, a timer of this event loop like this one, would otherwise race it, and it answers 408
 * also to a connection that sent nothing. Timers run in the order they fall due, so this one wins.
 */
const NODE_CHECK_LEAD_MS = 100;

const clientAddress = (socket: Socket) => socket.remoteAddress?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

/**
 * Bounds what a connection may hold, from its accept (the raw TCP socket, before any TLS
 * handshake): its first request's headers within `headersTimeoutMs`, else it is closed (with 408
 * when it had begun one over plain HTTP, as Node answers). Node's own headersTimeout covers the
 * later requests of a keep-alive connection, but starts only once the HTTP layer has the socket:
 * after the TLS handshake, which an idle TLS connection never starts (Node's handshakeTimeout
 * is 120 s). And at most `maxConnectionsPerClient` open connections per client address.
 */
const boundConnections = (
  server: HttpServer,
  { maxConnectionsPerClient, headersTimeoutMs, secure }: { maxConnectionsPerClient: number; headersTimeoutMs: number; secure: boolean },
) => {
  const open = new Map<string, number>();
  const waiting = new Map<Socket, NodeJS.Timeout>();
  server.on('connection', (socket: Socket) => {
    const address = clientAddress(socket);
    if (address === undefined) return void socket.destroy();
    const count = open.get(address) ?? 0;
    if (maxConnectionsPerClient > 0 && count >= maxConnectionsPerClient) return void socket.destroy();
    open.set(address, count + 1);
    const timer = setTimeout(() => {
      waiting.delete(socket);
      // Over TLS the bytes read are the handshake's: nothing an HTTP answer could go to.
      if (!secure && socket.bytesRead > 0 && socket.writable) socket.write(REQUEST_TIMEOUT_ANSWER);
      socket.destroy();
    }, Math.max(1, headersTimeoutMs - NODE_CHECK_LEAD_MS));
    timer.unref();
    waiting.set(socket, timer);
    socket.once('close', () => {
      clearTimeout(waiting.get(socket));
      waiting.delete(socket);
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
  // A request's headers are complete: 'request', or instead of it 'checkContinue' for
  // `Expect: 100-continue` (http/expectContinue.ts; a listener of 'checkExpectation' would take
  // Node's 417 away). Over TLS, request.socket is the TLS socket wrapping the accepted one (its
  // `_parent`, as node:tls sets it).
  const headersArrived = (request: IncomingMessage) => {
    const raw = (request.socket as Socket & { _parent?: Socket })._parent ?? request.socket;
    clearTimeout(waiting.get(raw));
    waiting.delete(raw);
  };
  for (const event of ['request', 'checkContinue']) server.prependListener(event, headersArrived);
};

/**
 * Serves a collector app on `host`:`port` (0: any free port) over HTTP/1.1, or HTTPS with `tls`;
 * resolves once it listens, with its URL and the server to close. Connections are bounded
 * (README, "Security": limits): headers within 10 s of the accept, idle keep-alive connections
 * closed after 5 s, at most `maxConnectionsPerClient` open connections per client address.
 *
 * @example
 * const { url, server } = await listen(createCollector(options), { port: 0, host: '127.0.0.1' });
 */
export const listen = async (app: H3, options: ListenOptions) => {
  const { port, host, tls } = options;
  const headersTimeoutMs = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const server = serve(app, {
    port,
    hostname: host,
    silent: true,
    gracefulShutdown: false,
    tls,
    // HTTPS as HTTP/1.1: srvx would serve HTTP/2, whose sessions a browser keeps open and Node's
    // server.close() then waits on for ever; HTTP/1.1 connections close when idle (see shutdown).
    // Node checks its timeouts every connectionsCheckingInterval (30 s by default): every second here.
    node: {
      http2: false,
      headersTimeout: headersTimeoutMs,
      requestTimeout: Math.max(HEADERS_TIMEOUT_MS, headersTimeoutMs),
      connectionsCheckingInterval: Math.min(1_000, headersTimeoutMs),
    },
  });
  const nodeServer = server.node?.server as (HttpServer & { httpAllowHalfOpen?: boolean }) | undefined;
  if (nodeServer) {
    nodeServer.keepAliveTimeout = options.keepAliveTimeoutMs ?? KEEP_ALIVE_TIMEOUT_MS;
    boundConnections(nodeServer, {
      maxConnectionsPerClient: options.maxConnectionsPerClient ?? DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
      headersTimeoutMs,
      secure: !!tls,
    });
  }
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
