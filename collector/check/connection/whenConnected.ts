import type { Socket } from 'node:net';

/**
 * Waits for a connection being opened on `socket` to be ready: its `connect` (TCP) or
 * `secureConnect` (a TLS handshake) event. Resolves with the socket then; rejects with its error,
 * or with the signal's reason on abort, destroying it and the connection `under` it (a TLS
 * handshake's TCP socket), so that nothing is left open by a failed or abandoned step.
 *
 * @example
 * const socket = await whenConnected(connect({ host: '127.0.0.1', port: 443 }), 'connect', signal);
 */
export const whenConnected = <S extends Socket>(socket: S, ready: 'connect' | 'secureConnect', signal: AbortSignal, under?: Socket) =>
  new Promise<S>((resolve, reject) => {
    const fail = (reason: unknown) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      under?.destroy();
      reject(reason);
    };
    const onAbort = () => fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once(ready, () => {
      signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', fail);
  });
