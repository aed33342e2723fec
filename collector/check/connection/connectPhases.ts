import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { seconds, type CheckContext, type Endpoint } from '../checkContext';
import { CheckFailure, checkFailure, EXIT_CODES } from '../checkFailure';
import { describeCertificateFailure } from '../report/describeCertificateFailure';
import { describeConnectError } from '../report/describeConnectError';
import { openTcp } from './openTcp';
import { openTunnel } from './openTunnel';
import { printable } from '../report/printable';
import { proxyName, type Proxy } from './proxyFor';
import type { ResolvedAddress } from './resolveHost';
import { inspectCertificate, startTls } from './startTls';
import { within, type Bound } from '../within';

const authority = (host: string, port: number) => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** Spec section 7: "Timeout or connection refused: outbound firewall, proxy or routing is at fault". */
const timedOut = (context: CheckContext, bound: Bound, what: string) =>
  checkFailure(
    EXIT_CODES.connect,
    bound == 'limit'
      ? `${what} within the connect timeout of ${seconds(context.connectTimeoutMs)} (--connect-timeout): an outbound firewall or proxy drops or holds the connection, or routing is broken`
      : `${what} within the total time of ${seconds(context.deadline.totalMs)} (--timeout): an outbound firewall or proxy drops or holds the connection, or routing is broken`,
  );

/** What is left of the connect timeout that started at `since`. */
const connectLeft = (context: CheckContext, since: number) => Math.max(0, context.connectTimeoutMs - (performance.now() - since));

/**
 * TCP connection to the endpoint, or to the proxy and then a CONNECT tunnel through it; bounded
 * by the connect timeout (from `since`) and the deadline. Fails with exit 4 (or 6 for a proxy
 * that refuses the tunnel).
 *
 * @example
 * const socket = await reach(context, { host: 'collector.example', port: 443, secure: true }, undefined, addresses, performance.now());
 */
export const reach = (context: CheckContext, endpoint: Endpoint, proxy: Proxy | undefined, addresses: ResolvedAddress[], since: number): Promise<Socket> => {
  const port = proxy ? Number(proxy.url.port || 80) : endpoint.port;
  const where = proxy ? `the proxy ${proxyName(proxy)}` : authority(endpoint.host, port);
  const tried = addresses.map((entry) => entry.address).join(', ');
  return within(
    context.deadline,
    connectLeft(context, since),
    async (signal) => {
      let socket: Socket;
      try {
        socket = await openTcp(addresses, port, signal);
      } catch (error) {
        throw signal.aborted ? error : checkFailure(EXIT_CODES.connect, describeConnectError(error, `${where} (${tried})`));
      }
      return proxy ? openTunnel(socket, proxy, endpoint.host, endpoint.port, signal) : socket;
    },
    (bound) => timedOut(context, bound, `no connection to ${where} (${tried})${proxy ? ` and through it to ${authority(endpoint.host, endpoint.port)}` : ''}`),
  );
};

/** Verification errors carry OpenSSL's or Node's certificate code; transport errors do not. */
const isCertificateError = (code: string | undefined) => !!code && !/^E[A-Z]+$/.test(code) && !code.startsWith('ERR_SSL') && code != 'ERR_SOCKET_CLOSED';

const describeHandshakeError = (error: NodeJS.ErrnoException, endpoint: Endpoint) => {
  const where = authority(endpoint.host, endpoint.port);
  const message = printable(error.message, 160);
  if (/wrong version number|packet length too long|http request/i.test(message)) {
    return `${where} does not speak TLS (${message}): it may be plain HTTP (try http://) or another port`;
  }
  if (error.code == 'ECONNRESET' || /disconnected|socket hang up/i.test(message)) {
    return `the connection to ${where} was cut during the TLS handshake (${error.code ?? 'closed'}): a firewall or proxy filtering TLS by server name, or the server does not speak TLS on this port`;
  }
  return `the TLS handshake with ${where} failed (${error.code ?? 'error'}: ${message})`;
};

/**
 * The TLS handshake on `socket`, verifying the certificate (exit 5 when it fails, with the reading
 * of `describeCertificateFailure`; exit 4 when nothing answers in time). To read the refused
 * certificate it opens one more connection for `inspectCertificate`, which sends no request.
 *
 * @example
 * const secure = await secureSocket(context, endpoint, proxy, addresses, socket, since);
 */
export const secureSocket = async (
  context: CheckContext,
  endpoint: Endpoint,
  proxy: Proxy | undefined,
  addresses: ResolvedAddress[],
  socket: Socket,
  since: number,
): Promise<TLSSocket> => {
  try {
    return await within(
      context.deadline,
      connectLeft(context, since),
      (signal) => startTls(socket, { host: endpoint.host, secureContext: context.trusted.secureContext }, signal),
      (bound) => timedOut(context, bound, `no TLS answer from ${authority(endpoint.host, endpoint.port)}, which accepted the connection,`),
    );
  } catch (error) {
    if (error instanceof CheckFailure) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (!isCertificateError(code)) throw checkFailure(EXIT_CODES.tls, describeHandshakeError(error as NodeJS.ErrnoException, endpoint));
    const chain = await within(
      context.deadline,
      Infinity,
      async (signal) => inspectCertificate(await reach(context, endpoint, proxy, addresses, performance.now()), endpoint.host, signal),
      () => new Error('no time left to read the certificate'),
    ).catch(() => []);
    const reading = describeCertificateFailure(code!, chain, endpoint.host, context.now());
    const roots = reading.pointsTo == 'CA certificates' || reading.pointsTo == 'TLS interception' ? ` (trusted roots: ${context.trusted.sources.join(', ')})` : '';
    throw checkFailure(EXIT_CODES.tls, `${reading.detail}${roots}`);
  }
};
