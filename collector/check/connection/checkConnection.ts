import { isIP, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { CheckContext, Endpoint } from '../checkContext';
import { reach, secureSocket } from './connectPhases';
import type { RunStep } from '../report/createReporter';
import { interceptionProduct } from '../report/interceptionProduct';
import type { Route } from './openConnection';
import { printable } from '../report/printable';
import { proxyName } from './proxyFor';
import { resolveHost } from './resolveHost';

const describeTls = (secure: TLSSocket) => {
  const certificate = secure.getPeerCertificate(true);
  const chain = [];
  for (let entry = certificate; entry?.fingerprint256 && chain.length < 10; entry = entry.issuerCertificate) {
    chain.push(entry);
    if (entry.issuerCertificate == entry) break;
  }
  const cn = (name: Record<string, unknown> | undefined) => printable(String(name?.CN ?? name?.O ?? '?'), 80);
  const until = certificate?.valid_to ? new Date(certificate.valid_to).toISOString().slice(0, 10) : '?';
  const product = interceptionProduct(chain);
  const inspected = product ? `; TLS inspection by ${product} is in the path (its root is trusted on this machine)` : '';
  return `${secure.getProtocol()}, certificate for ${cn(certificate?.subject)} issued by ${cn(certificate?.issuer)}, valid until ${until}, verified${inspected}`;
};

/**
 * The first three steps against the collector (docs/connectivity-check.md): `dns` (exit 3),
 * `connect` (exit 4; through the proxy of `HTTPS_PROXY` when set, which the line names) and, for
 * https, `tls` (exit 5). Resolves with the open connection for the `http` step and the route that
 * later requests reuse.
 *
 * @example
 * const { socket, route } = await checkConnection(context, reporter.step);
 */
export const checkConnection = async (context: CheckContext, step: RunStep): Promise<{ socket: Socket; route: Route }> => {
  const { target, proxy } = context;
  const endpoint: Endpoint = { host: target.host, port: target.port, secure: target.secure };
  const proxyHost = proxy?.url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = await step('dns', async (say) => {
    const lookupHost = proxyHost ?? target.host;
    const found = await resolveHost(lookupHost, context.resolver, context.deadline);
    const list = found.map((entry) => entry.address).join(', ');
    const resolved = isIP(lookupHost) ? `${lookupHost} is an address; no lookup needed` : `${lookupHost} resolves to ${list}`;
    say(proxy ? `proxy ${proxyName(proxy)}: ${resolved}; the proxy resolves ${target.host}` : resolved);
    return found;
  });
  const route: Route = { proxy, addresses };
  const since = performance.now();
  let socket = await step('connect', async (say) => {
    const opened = await reach(context, endpoint, proxy, addresses, since);
    const at = `${target.host}:${target.port}`;
    say(proxy ? `tunnel to ${at} open through the proxy ${proxyName(proxy)}` : `connected to ${at} (${opened.remoteAddress})`);
    return opened;
  });
  if (target.secure) {
    socket = await step('tls', async (say) => {
      const secure = await secureSocket(context, endpoint, proxy, addresses, socket, since);
      say(describeTls(secure));
      return secure;
    });
  } else {
    await step('tls', async (say) => say('skipped: plain http:// (the spec\'s transport is HTTPS on port 443; use http only for a local collector)'));
  }
  return { socket, route };
};
