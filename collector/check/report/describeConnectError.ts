import { printable } from './printable';

/** What each connect error means; spec section 7: "outbound firewall, proxy or routing is at fault". */
const MEANINGS: Record<string, string> = {
  ECONNREFUSED: 'refused the connection (ECONNREFUSED): nothing listens on that port, or a firewall rejects it; check the port in the URL and the outbound firewall',
  ETIMEDOUT: 'did not answer (ETIMEDOUT): an outbound firewall drops the packets, or routing is broken',
  EHOSTUNREACH: 'is unreachable (EHOSTUNREACH): no route to it; check routing and the outbound firewall',
  ENETUNREACH: 'is on an unreachable network (ENETUNREACH): this machine has no route there (an IPv6 address without IPv6?)',
  ECONNRESET: 'reset the connection (ECONNRESET): a firewall or proxy cut it',
  EACCES: 'could not be connected to (EACCES): a local firewall policy forbids this connection',
  EPERM: 'could not be connected to (EPERM): a local firewall policy forbids this connection',
  EADDRNOTAVAIL: 'could not be connected to (EADDRNOTAVAIL): this machine has no source address for it',
};

/**
 * The sentence for a failed TCP connection to `where` (such as `collector.example:443 (203.0.113.5)`).
 *
 * @example
 * describeConnectError(Object.assign(new Error(), { code: 'ECONNREFUSED' }), '127.0.0.1:9');
 * // '127.0.0.1:9 refused the connection (ECONNREFUSED): nothing listens on that port, …'
 */
export const describeConnectError = (error: unknown, where: string): string => {
  const code = (error as NodeJS.ErrnoException)?.code;
  const meaning = (code && MEANINGS[code]) || `could not be connected to: ${printable(String((error as Error)?.message ?? error), 200)}`;
  return `${where} ${meaning}`;
};
