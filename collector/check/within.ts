import type { Deadline } from './createDeadline';

/** Which bound ended a wait: its own limit (such as `--connect-timeout`) or the total (`--timeout`). */
export type Bound = 'limit' | 'total';

/**
 * Runs `work` for at most `limitMs` and never past `deadline`. When either bound is reached it
 * rejects at once with `onTimeout(bound)` and aborts the signal it gave `work`, which must then
 * release its sockets; it does not wait for `work` to notice.
 *
 * @example
 * const socket = await within(deadline, 10_000, (signal) => openTcp(addresses, 443, signal),
 *   (bound) => checkFailure(EXIT_CODES.connect, `no connection (${bound})`));
 */
export const within = <T>(
  deadline: Deadline,
  limitMs: number,
  work: (signal: AbortSignal) => Promise<T>,
  onTimeout: (bound: Bound) => Error,
): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const controller = new AbortController();
    const remaining = deadline.remaining();
    const bound: Bound = limitMs < remaining ? 'limit' : 'total';
    const stop = (reason: Bound) => {
      cleanup();
      const error = onTimeout(reason);
      controller.abort(error);
      reject(error);
    };
    const onDeadline = () => stop('total');
    const timer = setTimeout(() => stop(bound), Math.min(limitMs, remaining));
    const cleanup = () => {
      clearTimeout(timer);
      deadline.signal.removeEventListener('abort', onDeadline);
    };
    deadline.signal.addEventListener('abort', onDeadline, { once: true });
    work(controller.signal).then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error);
      },
    );
  });
