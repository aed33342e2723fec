import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Alert } from '../core/alerts/alert';
import { httpOutcome, type DeliveryOutcome } from '../core/alerts/outcome';
import { privateRange } from '../core/alerts/privateAddress';
import { webhookHeaders } from '../core/alerts/signature';
import { oneLine } from '../core/alerts/text';
import { webhookBody, type WebhookFormat } from '../core/alerts/webhookBody';

/** A webhook channel (docs/alerts.md, "Webhooks"). */
export interface WebhookTarget {
  url: string;
  format: WebhookFormat;
  /** Signs each request when set (`Sitebeacon-Signature`). */
  secret?: string | undefined;
}

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface SendWebhookOptions {
  /** Post to private, loopback and other internal addresses too (`serve --allow-private-webhooks`). */
  allowPrivate?: boolean;
  /** The whole try's bound: resolving, connecting, sending and reading the answer. */
  timeoutMs?: number;
  /** The try's time, for `Sitebeacon-Timestamp`. */
  now?: Date;
  /** Resolves a host name to every address; the system's getaddrinfo unless a caller has its own. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** The certificates HTTPS trusts instead of Node's roots (a private CA; a test's own). */
  ca?: string | Buffer | undefined;
}

/** A try's bound by default: a receiver that needs longer should answer first and work after. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of an answer is read: enough for an error's first line, never a whole page. */
const ANSWER_READ_BYTES = 4096;

const systemResolve = (hostname: string) => lookup(hostname, { all: true, verbatim: true });

/** An alert id is sent as a header value: visible ASCII only, so a bad one fails here rather than in Node's header check. */
const HEADER_SAFE = /^[\x21-\x7e]{1,200}$/;

class Refused extends Error {}

/** The first `limit` bytes of an answer's body, then the connection is dropped. */
const readSome = (response: IncomingMessage, limit: number) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) {
        // Resolved first: dropping the connection says the answer was cut off, which here is the point.
        resolve(Buffer.concat(chunks).subarray(0, limit).toString('utf8'));
        response.destroy();
      }
    });
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
    response.on('aborted', () => reject(new Error('the answer was cut off')));
  });

/** `Retry-After` in seconds (a delay, or an HTTP date from `now`), or undefined. */
const retryAfterSeconds = (header: string | undefined, now: Date): number | undefined => {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now.getTime()) / 1000));
};

/** The host's addresses, checked: every one must be public unless private ones are allowed. */
const checkedAddresses = async (hostname: string, options: SendWebhookOptions): Promise<ResolvedAddress[]> => {
  const family = isIP(hostname);
  const addresses = family ? [{ address: hostname, family }] : await (options.resolve ?? systemResolve)(hostname);
  if (!addresses.length) throw new Error(`${hostname} resolves to no address`);
  if (options.allowPrivate) return addresses;
  for (const { address } of addresses) {
    const range = privateRange(address);
    if (range) throw new Refused(`refused target: ${hostname} resolves to ${address} (${range.replace('_', '-')}); serve --allow-private-webhooks allows it`);
  }
  return addresses;
};

/**
 * Posts `alert` to a webhook channel, once, and says what came of it (docs/alerts.md, "Retries"):
 * `sent` on 2xx; `retry` on a timeout, a connection error, 5xx or 429; `fail` on another 4xx, a
 * redirect (never followed) or a refused target. The URL's host is resolved and refused when any
 * address is private (docs/alerts.md, "Private targets") unless `allowPrivate`; the connection goes
 * to the address that was checked, with the host name kept for `Host` and TLS. At most a few
 * kilobytes of the answer are read.
 *
 * @example
 * const outcome = await sendWebhook({ url: 'https://hooks.example/in', format: 'json', secret }, alert);
 * if (outcome.status == 'retry') schedule(nextAttempt(tries, new Date(), outcome.retryAfterSeconds));
 */
export const sendWebhook = async (target: WebhookTarget, alert: Alert, options: SendWebhookOptions = {}): Promise<DeliveryOutcome> => {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const now = options.now ?? new Date();
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    return { status: 'fail', error: 'the webhook URL does not parse' };
  }
  if (url.protocol != 'http:' && url.protocol != 'https:') return { status: 'fail', error: `a webhook URL is http or https, not ${oneLine(url.protocol, 20)}` };
  if (!HEADER_SAFE.test(alert.id)) return { status: 'fail', error: 'the alert id is not a valid header value' };
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const signal = AbortSignal.timeout(timeoutMs);
  const timedOut = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
  timedOut.catch(() => undefined);
  const body = webhookBody(alert, target.format);
  try {
    // getaddrinfo cannot be cancelled: the try gives up waiting for it at the deadline.
    const [chosen] = await Promise.race([checkedAddresses(hostname, options), timedOut]);
    // The connection uses the checked address, whatever the name resolves to by then.
    const pinned: LookupFunction = (_name, lookupOptions, callback) =>
      lookupOptions.all ? callback(null, [chosen!]) : callback(null, chosen!.address, chosen!.family);
    const headers = { ...webhookHeaders({ delivery: alert.id, body, secret: target.secret, now }), 'Content-Length': String(Buffer.byteLength(body)) };
    const request = (url.protocol == 'https:' ? httpsRequest : httpRequest)({
      protocol: url.protocol,
      hostname,
      port: url.port || undefined,
      path: url.pathname + url.search,
      method: 'POST',
      headers,
      auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
      lookup: pinned,
      agent: false,
      ...(options.ca ? { ca: options.ca } : {}),
      signal,
    });
    const answered = new Promise<IncomingMessage>((resolve, reject) => {
      request.on('response', resolve);
      request.on('error', reject);
    });
    request.end(body);
    const response = await answered;
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400) {
      response.destroy();
      return httpOutcome(status, `redirect to ${response.headers.location ?? '(no Location)'} not followed`);
    }
    const text = status >= 200 && status < 300 ? (response.destroy(), '') : await readSome(response, ANSWER_READ_BYTES);
    const detail = oneLine(text, 200) || response.statusMessage || '';
    const retryAfter = status == 429 || status == 503 ? retryAfterSeconds(response.headers['retry-after'], now) : undefined;
    return httpOutcome(status, detail, retryAfter);
  } catch (error) {
    if (error instanceof Refused) return { status: 'fail', error: oneLine(error.message, 300) };
    if (signal.aborted) return { status: 'retry', error: `timed out after ${timeoutMs / 1000} s` };
    const { code, message } = error as NodeJS.ErrnoException;
    return { status: 'retry', error: oneLine(`${code ? `${code}: ` : ''}${message}`, 300) };
  }
};
