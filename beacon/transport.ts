import type { Endpoints } from './config';
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
/**
 * Five attempts: the longest backoff is 1 s x 2^3 = 8 s (less jitter), so it needs no cap. What
 * waits for a retry is bounded by init's per-page caps: 25 error and 25 CSP reports, and a session's
 * older snapshots end at their next attempt.
 */
const MAX_ATTEMPTS = 5;
const FIRST_RETRY_DELAY = 1000;

/**
 * What `init` sends through: sends one body to the endpoint of its kind; resolves when the first attempt has settled. Never
 * rejects. A body for which `superseded` is true by the time of an attempt is not sent (a session's
 * older snapshot, once a newer one was: only the newest is retried).
 */
export type Transport = (kind: keyof Endpoints, body: string, atExit?: boolean, superseded?: (body: string) => unknown) => Promise<unknown> | undefined;

/**
 * Read before every attempt: once `_blocked` (the page's CSP blocks the collector), nothing is
 * sent any more, retries included (they would only be blocked again). `_endpoints`: where each
 * kind goes. `init` passes its context.
 */
export interface TransportState {
  _blocked?: boolean;
  _endpoints: Endpoints;
}

/**
 * Creates the transport: `fetch` with `keepalive` and the spec's JSON type while the page lives;
 * `sendBeacon` (a text/plain body: no preflight) at page exit. Network failures, 429 and 5xx are
 * retried with exponential backoff (429/503 after their `Retry-After` seconds); other 4xx are
 * given up. Nothing here ever throws or rejects into the page.
 *
 * @example
 * createTransport({ _endpoints: resolveEndpoints({ siteKey: 'KEY', ingestOrigin: 'https://in.example' }, location.origin) })('error', '[{"error_type":"manual","error_message":"x"}]');
 */
export const createTransport = (state: TransportState): Transport => {
  let inflightBytes = 0;
  let pausedUntil = 0;

  const send = async (kind: keyof Endpoints, body: string, atExit?: boolean, superseded?: (body: string) => unknown, attempt = 0): Promise<void> => {
    const url = state._endpoints[kind];
    // Unless blocked meanwhile or superseded by a newer body; at page exit, sendBeacon
    // first (false when over its quota: then fetch).
    if (state._blocked || superseded?.(body) || (atExit && navigator.sendBeacon?.(url, body))) return;
    // While the collector asked us to wait (429, 5xx, or it is unreachable), new bodies wait too;
    // but not at page exit, where waiting is losing: Chromium rejects an in-flight keepalive fetch
    // at pagehide ("Failed to fetch") although it goes on, and that must not hold back the last snapshot.
    if (atExit || Date.now() >= pausedUntil) {
      const size = byteLength(body);
      const counted = inflightBytes + size <= KEEPALIVE_QUOTA ? size : 0;
      inflightBytes += counted;
      let delay;
      try {
        const { status, headers } = await fetch(url, {
          method: 'POST',
          body,
          keepalive: !!counted,
          credentials: 'omit',
          headers: { 'Content-Type': 'application/json' },
        });
        if (status != 429 && status < 500) return;
        // An HTTP-date Retry-After is NaN here: the usual backoff then.
        delay = +headers.get('retry-after')! * 1000;
      } catch {
        // A network failure (or no fetch at all): retried like a 5xx.
      } finally {
        inflightBytes -= counted;
      }
      pausedUntil = Math.max(pausedUntil, Date.now() + (delay || FIRST_RETRY_DELAY * 2 ** attempt * (0.5 + Math.random() / 2)));
      attempt++;
    }
    if (attempt < MAX_ATTEMPTS) {
      setTimeout(
        monitor(() => send(kind, body, false, superseded, attempt)),
        pausedUntil - Date.now(),
      );
    }
  };

  // Nothing here throws: send is async, and its rejections reach the caller's monitor().
  return send;
};
