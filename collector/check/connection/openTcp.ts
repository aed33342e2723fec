import { connect, type Socket } from 'node:net';
import type { ResolvedAddress } from './resolveHost';
import { whenConnected } from './whenConnected';

const attempt = (address: ResolvedAddress, port: number, signal: AbortSignal) =>
  whenConnected(connect({ host: address.address, port, family: address.family, noDelay: true }), 'connect', signal);

/**
 * A TCP connection to the first of `addresses` that accepts one, tried in the resolver's order
 * (like getaddrinfo users such as curl without happy eyeballs). Rejects with the last address's
 * error. Aborting `signal` destroys the attempt in progress; the caller bounds the time.
 *
 * @example
 * const socket = await openTcp([{ address: '127.0.0.1', family: 4 }], 443, signal);
 */
export const openTcp = async (addresses: ResolvedAddress[], port: number, signal: AbortSignal): Promise<Socket> => {
  let last: unknown = new Error('no address to connect to');
  for (const address of addresses) {
    if (signal.aborted) break;
    try {
      return await attempt(address, port, signal);
    } catch (error) {
      last = error;
    }
  }
  throw last;
};
