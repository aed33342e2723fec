import { isIP } from 'node:net';
import { CheckFailure, checkFailure, EXIT_CODES } from '../checkFailure';
import type { Deadline } from '../createDeadline';
import { printable } from '../report/printable';
import { within } from '../within';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * Resolves a host name, giving up when `signal` aborts; `systemResolver` unless a test injects
 * its own, so that DNS failures are tested without the network.
 */
export type Resolver = (hostname: string, signal: AbortSignal) => Promise<ResolvedAddress[]>;

/** What each getaddrinfo error means for the person at this machine. */
const MEANINGS: Record<string, string> = {
  ENOTFOUND: 'the name does not exist for this machine\'s resolver: check the spelling, /etc/resolv.conf, and split-horizon or internal DNS',
  EAI_AGAIN: 'the resolver did not answer (temporary failure): check /etc/resolv.conf and that DNS (port 53) is allowed out',
  ESERVFAIL: 'the DNS server failed to answer for this name',
  ENODATA: 'the name exists but has no address record',
  EREFUSED: 'the DNS server refused the query',
};

/**
 * The DNS step (spec section 7, "Host cannot be resolved"): the addresses of `host`, or a failure
 * with exit code 3 naming what the resolver said. An IP address needs no lookup.
 *
 * @example
 * const addresses = await resolveHost('collector.example', systemResolver, deadline);
 */
export const resolveHost = async (host: string, resolver: Resolver, deadline: Deadline): Promise<ResolvedAddress[]> => {
  const family = isIP(host);
  if (family) return [{ address: host, family }];
  const seconds = (deadline.totalMs / 1000).toFixed(0);
  let addresses: ResolvedAddress[];
  try {
    addresses = await within(
      deadline,
      Infinity,
      (signal) => resolver(host, signal),
      () => checkFailure(EXIT_CODES.dns, `DNS on this machine did not resolve ${host} within the total ${seconds} s (--timeout): the resolver does not answer`),
    );
  } catch (error) {
    if (error instanceof CheckFailure) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    const meaning = MEANINGS[code] ?? printable(String((error as Error)?.message ?? error));
    throw checkFailure(EXIT_CODES.dns, `DNS on this machine cannot resolve ${host} (${code}): ${meaning}`);
  }
  if (!addresses.length) throw checkFailure(EXIT_CODES.dns, `DNS on this machine resolves ${host} to no address`);
  return addresses;
};
