import { request, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

/** An HTTP answer, its body cut at `MAX_BODY` (every answer is hostile input). */
export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** Every header as its list of field lines (two CSP headers stay two policies). */
  headersDistinct: Partial<Record<string, string[]>>;
  body: string;
  /** The body was longer than `MAX_BODY` and was cut. */
  truncated: boolean;
}

/** What the check reads of a body: enough for any collector answer, page head or challenge page. */
export const MAX_BODY = 512 * 1024;

/** One request of the check. */
export interface HttpCall {
  url: URL;
  method: 'GET' | 'POST' | 'OPTIONS';
  headers?: Record<string, string>;
  body?: string;
}

/**
 * Sends one HTTP/1.1 request on an already opened (and, for https, verified) connection and
 * reads the answer. The connection is closed afterwards. Aborting `signal` destroys it.
 *
 * @example
 * const answer = await httpExchange(secureSocket, { url: new URL('https://c.example/api/test-connectivity'), method: 'GET' }, signal);
 */
export const httpExchange = (socket: Socket, call: HttpCall, signal: AbortSignal): Promise<HttpAnswer> =>
  new Promise<HttpAnswer>((resolve, reject) => {
    const { url, method } = call;
    const outgoing = request({
      method,
      path: `${url.pathname}${url.search}`,
      headers: {
        host: url.host,
        'user-agent': 'sitebeacon-check',
        accept: 'application/json, text/html;q=0.5, */*;q=0.1',
        connection: 'close',
        ...call.headers,
        ...(call.body !== undefined ? { 'content-length': String(Buffer.byteLength(call.body)) } : {}),
      },
      createConnection: () => socket,
    });
    const onAbort = () => {
      outgoing.destroy();
      socket.destroy();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const fail = (error: Error) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(error);
    };
    outgoing.once('error', fail);
    outgoing.once('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        signal.removeEventListener('abort', onAbort);
        socket.destroy();
        resolve({ status: response.statusCode ?? 0, headers: response.headers, headersDistinct: response.headersDistinct, body: Buffer.concat(chunks).toString('utf8'), truncated });
      };
      response.on('data', (chunk: Buffer) => {
        if (done) return;
        if (size + chunk.length > MAX_BODY) {
          chunks.push(chunk.subarray(0, MAX_BODY - size));
          truncated = true;
          response.destroy();
          return finish();
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      response.once('end', finish);
      response.once('error', (error) => (done ? undefined : fail(error)));
    });
    outgoing.end(call.body);
  });
