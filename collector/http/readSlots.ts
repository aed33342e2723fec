import { apiError } from './apiError';
import type { Caller } from './route';

/**
 * Heavy reads (the read API's views, route.ts `heavyRead`) one caller may have under way at once.
 * The dashboard's site page asks for three views at once (dashboard/boot.ts: CSP groups, vitals
 * and pages once the first screen is answered); one more leaves room for a reload or a second tab
 * while the first page's reads are still made. A script looping over the views gets no more than
 * this share of the reader (store/sqlite/readThread.ts), whatever its concurrency.
 */
export const HEAVY_READS_PER_CALLER = 4;

/** Seconds a caller over its share is asked to wait: a view is read in well under that. */
export const HEAVY_READ_RETRY_AFTER_S = 1;

/**
 * Who a heavy read counts against: the API key, or the signed-in user. Undefined for a caller
 * authentication did not identify (no heavy read route lets one through).
 *
 * @example
 * callerOf({ apiKey }) // 'key:12'
 */
export const callerOf = ({ apiKey, user }: Caller): string | undefined =>
  apiKey ? `key:${apiKey.id}` : user ? `user:${user.id}` : undefined;

/**
 * A bound on each caller's heavy reads in flight, refused rather than queued (as the sign-in's
 * hashes are, hashingSlots.ts): `take(caller)` answers a `release` function, or throws 429
 * `rate_limited` with `Retry-After` when the caller already has `perCaller` under way. Releasing
 * twice gives back one slot. Per collector, so that tests can start many in one process.
 *
 * @example
 * const slots = createReadSlots();
 * const release = slots.take('key:12'); // throws 429 past HEAVY_READS_PER_CALLER
 * try { await read(); } finally { release(); }
 */
export const createReadSlots = ({ perCaller = HEAVY_READS_PER_CALLER }: { perCaller?: number } = {}) => {
  const inFlight = new Map<string, number>();
  return {
    take(caller: string): () => void {
      const taken = inFlight.get(caller) ?? 0;
      if (taken >= perCaller) {
        throw apiError(429, 'rate_limited', `at most ${perCaller} of these reads at once per caller; retry after ${HEAVY_READ_RETRY_AFTER_S} s`, {
          'retry-after': String(HEAVY_READ_RETRY_AFTER_S),
        });
      }
      inFlight.set(caller, taken + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = inFlight.get(caller)! - 1;
        if (left) inFlight.set(caller, left);
        else inFlight.delete(caller);
      };
    },
    /** The caller's heavy reads under way now. */
    inFlight: (caller: string) => inFlight.get(caller) ?? 0,
  };
};

export type ReadSlots = ReturnType<typeof createReadSlots>;
