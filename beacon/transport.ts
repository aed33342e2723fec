import { byteLength } from './lib/byteLength';
import { monitor } from './lib/monitor';

/**
 * Bytes of keepalive request bodies that may be in flight at once: 64 KiB in the Fetch
 * standard (https://fetch.spec.whatwg.org/#http-network-or-cache-fetch, "inflightKeepaliveBytes"),
 * shared with `sendBeacon` in Chromium.
 */
export const KEEPALIVE_QUOTA = 65536;
/** One body is kept well under the quota, so several sends fit at page exit. */
export const MAX_BODY_BYTES = 16384;
const MAX_ATTEMPTS = 5;
const FIRST_RETRY_DELAY = 1000;
const MAX_RETRY_DELAY = 60000;
/** Bodies waiting for a retry; past this, new failures are dropped (a bounded queue). */
const MAX_WAITING = 20;

interface Outgoing {
  _url: string;
  _body: string;
  /** Bodies with the same key supersede each other (a session's snapshots): only the newest is retried. */
  _key?: string | undefined;
  _attempt: number;
}

/** What `init` sends through. */
export interface Transport {
  /** Sends one body; resolves when the first attempt has settled. Never rejects. */
  _send(url: string, body: string, atExit: boolean, key?: string): Promise<unknown> | undefined;
  /** Stops every send for good: the page's CSP blocks the collector (a retry would only be blocked again). */
  _block(): void;
}

/**
 * Creates the transport: `fetch` with `keepalive` and the spec's JSON type while the page lives;
 * `sendBeacon` (a text/plain body: no preflight) at page exit. Network failures, 429 and 5xx are
 * retried with exponential backoff (429/503 after their `Retry-After` seconds); other 4xx are
 * given up. Nothing here ever throws or rejects into the page.
 */
export const createTransport = (): Transport => {
  let inflightBytes = 0;
  let blocked = false;
  let pausedUntil = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waiting: Outgoing[] = [];
  const newest: Record<string, string> = {};

  const isStale = (item: Outgoing) => item._key !== undefined && newest[item._key] != item._body;

  const later = (item: Outgoing, delay: number) => {
    pausedUntil = Math.max(pausedUntil, Date.now() + delay);
    if (blocked || item._attempt >= MAX_ATTEMPTS || isStale(item) || waiting.length >= MAX_WAITING) return;
    waiting.push(item);
    clearTimeout(timer);
    timer = setTimeout(drain, pausedUntil - Date.now());
  };

  const drain = monitor(() => {
    for (const item of waiting.splice(0)) if (!isStale(item)) attempt(item, false);
  });

  const attempt = (item: Outgoing, atExit: boolean): Promise<unknown> | undefined => {
    if (blocked) return;
    // While the collector asked us to wait (429, 5xx, or it is unreachable), new bodies wait too.
    if (Date.now() < pausedUntil) {
      later(item, 0);
      return;
    }
    const { _url: url, _body: body } = item;
    if (atExit && navigator.sendBeacon?.(url, body)) return;
    const size = byteLength(body);
    const keepalive = inflightBytes + size <= KEEPALIVE_QUOTA;
    const retry = (delay: number) =>
      later(
        { ...item, _attempt: item._attempt + 1 },
        delay || Math.min(FIRST_RETRY_DELAY * 2 ** item._attempt, MAX_RETRY_DELAY) * (0.5 + Math.random() / 2),
      );
    // Where fetch is missing this throws, and the caller's monitor() contains it.
    const request = fetch(url, {
      method: 'POST',
      body,
      keepalive,
      credentials: 'omit',
      headers: { 'Content-Type': 'application/json' },
    });
    if (keepalive) inflightBytes += size;
    return request
      .then(
        (response) => {
          const status = response.status;
          if (status == 429 || status >= 500) retry(Number(response.headers.get('retry-after')) * 1000);
        },
        () => retry(0),
      )
      .then(() => {
        if (keepalive) inflightBytes -= size;
      });
  };

  return {
    _send: monitor((url: string, body: string, atExit: boolean, key?: string) => {
      if (key !== undefined) newest[key] = body;
      return attempt({ _url: url, _body: body, _key: key, _attempt: 0 }, atExit);
    }),
    _block() {
      blocked = true;
      waiting = [];
    },
  };
};
