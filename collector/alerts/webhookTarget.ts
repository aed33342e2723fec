import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { privateRange } from '../core/alerts/privateAddress';
import type { ResolvedAddress } from './sendWebhook';

/** How long a rule's check waits for the name's addresses: past it, the URL is taken and each delivery checks again. */
const RESOLVE_TIMEOUT_MS = 3000;

const systemResolve = (hostname: string) => lookup(hostname, { all: true, verbatim: true });

/**
 * Why a webhook URL is refused as a rule's target (docs/alerts.md, "Private targets"), or undefined
 * when it is taken: an IP literal in a private, loopback, link-local or other internal range, a
 * `localhost` name (RFC 6761: always the loopback), or a name that resolves to such an address.
 * A name that does not resolve (yet, or from here) is taken: every delivery resolves and checks it
 * again, and refuses it then. `allowPrivate` (`serve --allow-private-webhooks`) takes them all.
 *
 * @example
 * await refusedWebhookTarget('http://169.254.169.254/latest', {}); // 'http://169.254.169.254/latest is a link-local address: ...'
 */
export const refusedWebhookTarget = async (
  url: string,
  options: { allowPrivate?: boolean | undefined; resolve?: ((hostname: string) => Promise<ResolvedAddress[]>) | undefined } = {},
): Promise<string | undefined> => {
  if (options.allowPrivate) return undefined;
  const hostname = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
  const why = (address: string, range: string) =>
    `the webhook's host ${hostname}${address == hostname ? '' : ` resolves to ${address}`}, a ${range.replace('_', '-')} address: ` +
    'webhooks go to public addresses unless serve runs with --allow-private-webhooks';
  if (hostname == 'localhost' || hostname.endsWith('.localhost')) return why(hostname, 'loopback');
  if (isIP(hostname)) {
    const range = privateRange(hostname);
    return range && why(hostname, range);
  }
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<ResolvedAddress[]>((resolve) => (timer = setTimeout(() => resolve([]), RESOLVE_TIMEOUT_MS)));
  const addresses = await Promise.race([(options.resolve ?? systemResolve)(hostname).catch((): ResolvedAddress[] => []), timedOut]).finally(() => clearTimeout(timer));
  for (const { address } of addresses) {
    const range = privateRange(address);
    if (range) return why(address, range);
  }
  return undefined;
};
