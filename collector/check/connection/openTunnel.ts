import { request } from 'node:http';
import type { Socket } from 'node:net';
import { checkFailure, EXIT_CODES } from '../checkFailure';
import { printable } from '../report/printable';
import { proxyName, type Proxy } from './proxyFor';

const basicAuth = (url: URL) =>
  url.username ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}` : undefined;

/** A host for an authority-form request target: IPv6 in brackets. */
const authority = (host: string, port: number) => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * Opens a `CONNECT host:port` tunnel through the HTTP proxy on `socket` (RFC 9110 §9.3.6), for
 * https and plain http targets alike (one way through a proxy, as curl's --proxytunnel), and
 * resolves with the socket carrying it. A proxy that refuses (403, 407) is a proxy in the way
 * (exit 6); one that cannot reach the host (502, 503, 504) fails like a connection (exit 4).
 *
 * @example
 * const tunnel = await openTunnel(socket, proxy, 'collector.example', 443, signal);
 */
export const openTunnel = (socket: Socket, proxy: Proxy, host: string, port: number, signal: AbortSignal): Promise<Socket> =>
  new Promise<Socket>((resolve, reject) => {
    const target = authority(host, port);
    const auth = basicAuth(proxy.url);
    const connectRequest = request({
      method: 'CONNECT',
      path: target,
      headers: { host: target, ...(auth ? { 'proxy-authorization': auth } : {}) },
      createConnection: () => socket,
    });
    const onAbort = () => {
      connectRequest.destroy();
      socket.destroy();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    connectRequest.once('connect', (response, tunnel: Socket, head: Buffer) => {
      signal.removeEventListener('abort', onAbort);
      const status = response.statusCode ?? 0;
      if (status == 200) {
        if (head.length) tunnel.unshift(head);
        return resolve(tunnel);
      }
      tunnel.destroy();
      const via = `the proxy ${proxyName(proxy)}`;
      const said = `${status} ${printable(response.statusMessage ?? '', 80)}`.trim();
      if (status == 407) {
        reject(checkFailure(EXIT_CODES.intervention, `${via} wants credentials (407) for the tunnel to ${target}: put them in the proxy URL (http://user:password@proxy:port)`));
      } else if (status >= 502 && status <= 504) {
        reject(checkFailure(EXIT_CODES.connect, `${via} could not reach ${target} (${said}): its DNS, outbound firewall or routing is at fault`));
      } else {
        reject(checkFailure(EXIT_CODES.intervention, `${via} refused the tunnel to ${target} (${said}): its policy blocks this host; ask for ${host} to be allowed`));
      }
    });
    connectRequest.once('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(checkFailure(EXIT_CODES.connect, `the proxy ${proxyName(proxy)} closed the connection instead of answering CONNECT (${printable(error.message, 120)})`));
    });
    connectRequest.end();
  });
