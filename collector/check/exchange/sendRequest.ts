import type { Socket } from 'node:net';
import { seconds, type CheckContext } from '../checkContext';
import { CheckFailure, checkFailure, EXIT_CODES } from '../checkFailure';
import { httpExchange, type HttpAnswer, type HttpCall } from './httpExchange';
import { printable } from '../report/printable';

/**
 * One HTTP request on `socket`, bounded by the deadline. A server or middlebox that keeps the
 * connection without answering, or closes it without an answer, fails with exit 4 (spec section 7,
 * "Timeout … outbound firewall, proxy or routing").
 *
 * @example
 * const answer = await sendRequest(context, socket, { url, method: 'GET' });
 */
export const sendRequest = async (context: CheckContext, socket: Socket, call: HttpCall): Promise<HttpAnswer> => {
  const request = `${call.method} ${call.url.href}`;
  try {
    return await new Promise<HttpAnswer>((resolve, reject) => {
      const onDeadline = () => {
        socket.destroy();
        reject(
          checkFailure(
            EXIT_CODES.connect,
            `no HTTP answer to ${request} within the total time of ${seconds(context.deadline.totalMs)} (--timeout): the connection is open but nothing answers; a firewall or proxy holds it, or the server hangs`,
          ),
        );
      };
      if (context.deadline.signal.aborted) return onDeadline();
      context.deadline.signal.addEventListener('abort', onDeadline, { once: true });
      httpExchange(socket, call, context.deadline.signal)
        .then(resolve, reject)
        .finally(() => context.deadline.signal.removeEventListener('abort', onDeadline));
    });
  } catch (error) {
    if (error instanceof CheckFailure) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'closed';
    throw checkFailure(
      EXIT_CODES.connect,
      `the connection closed without an HTTP answer to ${request} (${code}: ${printable((error as Error).message, 120)}): a firewall or proxy cut it, or the server is not an HTTP server`,
    );
  }
};
