import type { Deadline } from './createDeadline';
import type { Proxy } from './connection/proxyFor';
import type { Resolver } from './connection/resolveHost';
import type { Target } from './targetFromUrl';
import type { TrustedCertificates } from './connection/trustedCertificates';

/** A host the check connects to: the collector, or the page given with `--page`. */
export interface Endpoint {
  host: string;
  port: number;
  secure: boolean;
}

/** What every step of one check shares. */
export interface CheckContext {
  target: Target;
  /** The proxy for the collector, if the environment names one. */
  proxy: Proxy | undefined;
  env: Record<string, string | undefined>;
  resolver: Resolver;
  trusted: TrustedCertificates;
  deadline: Deadline;
  /** Bounds TCP connect, proxy tunnel and TLS handshake together, as curl's --connect-timeout does. */
  connectTimeoutMs: number;
  /** The time the certificates are judged against (the clock of this machine). */
  now: () => Date;
}

/**
 * The endpoint of a URL.
 *
 * @example
 * endpointOf(new URL('https://shop.example/cart')); // { host: 'shop.example', port: 443, secure: true }
 */
export const endpointOf = (url: URL): Endpoint => {
  const secure = url.protocol == 'https:';
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port ? Number(url.port) : secure ? 443 : 80, secure };
};

/** `--timeout` or `--connect-timeout` as the messages say it. */
export const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;
