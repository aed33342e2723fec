import type { Socket } from 'node:net';
import type { CheckContext, Endpoint } from '../checkContext';
import { checkFailure, EXIT_CODES } from '../checkFailure';
import { reach, secureSocket } from './connectPhases';
import { proxyFor, type Proxy } from './proxyFor';
import { resolveHost, type ResolvedAddress } from './resolveHost';

/** The way to one endpoint: the proxy it goes through (if any) and the addresses to connect to. */
export interface Route {
  proxy: Proxy | undefined;
  addresses: ResolvedAddress[];
}

/**
 * Finds the route to an endpoint: its proxy under `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY`, and
 * the addresses of the proxy or of the host itself (through a proxy, the proxy resolves the host).
 *
 * @example
 * const route = await routeTo(context, { host: 'shop.example', port: 443, secure: true });
 */
export const routeTo = async (context: CheckContext, endpoint: Endpoint): Promise<Route> => {
  const proxy = proxyFor(endpoint, context.env);
  if (typeof proxy == 'string') throw checkFailure(EXIT_CODES.connect, proxy);
  const host = proxy ? proxy.url.hostname.replace(/^\[(.*)\]$/, '$1') : endpoint.host;
  return { proxy, addresses: await resolveHost(host, context.resolver, context.deadline) };
};

/**
 * A fresh connection to `endpoint` along `route`, TLS-verified for https, for one more request
 * after the steps that opened the first one. It fails with the same exit codes as those steps.
 *
 * @example
 * const socket = await openConnection(context, endpoint, route);
 */
export const openConnection = async (context: CheckContext, endpoint: Endpoint, route: Route): Promise<Socket> => {
  const since = performance.now();
  const socket = await reach(context, endpoint, route.proxy, route.addresses, since);
  return endpoint.secure ? secureSocket(context, endpoint, route.proxy, route.addresses, socket, since) : socket;
};
