import { connect, type Socket } from 'node:net';
import type { ResolvedAddress } from './resolveHost';

const attempt = (address: ResolvedAddress, port: number, signal: AbortSignal) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect({ host: address.address, port, family: address.family, noDelay: true });
    const onAbort = () => {
      socket.destroy();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => {
      signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(error);
    });
  });

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
