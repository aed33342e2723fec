import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { KeyPair } from './testCertificates';

/** A server a test started on a random loopback port; `close()` ends it and its connections. */
export interface FaultServer {
  port: number;
  close: () => Promise<void>;
}

type Closable = { listen: (port: number, host: string, done: () => void) => unknown; address: () => unknown; close: (done: () => void) => unknown; on: (event: 'connection' | 'secureConnection', listener: (socket: Socket) => void) => unknown };

/** Listens on 127.0.0.1:0, tracking sockets so that `close()` does not wait for them. */
const start = (server: Closable): Promise<FaultServer> => {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      }),
    );
  });
};

const tlsOptions = (pair: KeyPair) => ({ key: readFileSync(pair.key), cert: readFileSync(pair.cert) });

/** A port on which nothing listens: a server is started to get a free port, then closed. */
export const refusedPort = async () => {
  const server = await start(createNetServer());
  await server.close();
  return server.port;
};

/** Accepts TCP connections and never sends a byte (a firewall or proxy holding them). */
export const silentListener = () => start(createNetServer(() => undefined));

/** Completes TLS handshakes with `pair` and then stays silent (only the handshake matters). */
export const tlsListener = (pair: KeyPair) => start(createTlsServer(tlsOptions(pair), () => undefined));

/** A plain-HTTP server answering every request with `handler`. */
export const httpServer = (handler: RequestListener) => start(createHttpServer(handler));

/** An HTTPS server with `pair` answering every request with `handler`. */
export const httpsServer = (pair: KeyPair, handler: RequestListener) => start(createHttpsServer(tlsOptions(pair), handler));

/**
 * An HTTP proxy that opens `CONNECT` tunnels (to loopback only), or answers them with
 * `refuseWith`; `targets` lists what it was asked for.
 */
export const connectProxy = async ({ refuseWith }: { refuseWith?: number } = {}) => {
  const targets: string[] = [];
  const server: Server = createHttpServer((_request, response) => response.writeHead(405).end());
  server.on('connect', (request, client: Socket) => {
    targets.push(request.url ?? '');
    if (refuseWith) return client.end(`HTTP/1.1 ${refuseWith} Refused\r\ncontent-length: 0\r\n\r\n`);
    const port = Number(new URL(`http://${request.url}`).port);
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection established\r\n\r\n');
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n'));
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  });
  return { ...(await start(server)), targets };
};
