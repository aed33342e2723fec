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

/**
 * A caller's reads past its share that wait for a slot, at most, and for how long. A page left for
 * another leaves its reads under way on the collector (the browser stops waiting, the reader does
 * not), and the next page's reads are the same caller's: they wait for those to end rather than
 * being refused. Waiting costs a promise and a timer, not reader work; past either bound, 429.
 */
export const HEAVY_READS_WAITING_PER_CALLER = 8;
export const HEAVY_READ_WAIT_MS = 3_000;

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

const rateLimited = (perCaller: number) =>
  apiError(429, 'rate_limited', `at most ${perCaller} of these reads at once per caller; retry after ${HEAVY_READ_RETRY_AFTER_S} s`, {
    'retry-after': String(HEAVY_READ_RETRY_AFTER_S),
  });

interface CallerSlots {
  inFlight: number;
  /** Reads waiting for a slot, oldest first: each is handed one by `grant`. */
  waiting: Array<{ grant: () => void }>;
}

/**
 * A bound on each caller's heavy reads in flight: `take(caller)` resolves to a `release` function
 * once the caller has fewer than `perCaller` under way. A read past the share waits its turn, in
 * order, up to `waitMs`, with at most `waitingPerCaller` waiting; past either it rejects with 429
 * `rate_limited` and `Retry-After`. A waiting read whose client has gone (`signal`) leaves the line
 * without taking a slot. Releasing twice gives back one slot. Per collector, so that tests can start
 * many in one process.
 *
 * @example
 * const slots = createReadSlots();
 * const release = await slots.take('key:12'); // 429 after a wait past HEAVY_READS_PER_CALLER
 * try { await read(); } finally { release(); }
 */
export const createReadSlots = ({
  perCaller = HEAVY_READS_PER_CALLER,
  waitingPerCaller = HEAVY_READS_WAITING_PER_CALLER,
  waitMs = HEAVY_READ_WAIT_MS,
}: { perCaller?: number; waitingPerCaller?: number; waitMs?: number } = {}) => {
  const callers = new Map<string, CallerSlots>();

  const releaseOf = (caller: string, slots: CallerSlots) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The slot passes to the oldest waiting read, or is freed.
      const next = slots.waiting.shift();
      if (next) return next.grant();
      slots.inFlight--;
      if (!slots.inFlight) callers.delete(caller);
    };
  };

  return {
    take(caller: string, signal?: AbortSignal): Promise<() => void> {
      let slots = callers.get(caller);
      if (!slots) callers.set(caller, (slots = { inFlight: 0, waiting: [] }));
      if (slots.inFlight < perCaller) {
        slots.inFlight++;
        return Promise.resolve(releaseOf(caller, slots));
      }
      if (slots.waiting.length >= waitingPerCaller || waitMs <= 0 || signal?.aborted) return Promise.reject(rateLimited(perCaller));
      const own = slots;
      return new Promise((resolve, reject) => {
        const leave = (why: unknown) => {
          const at = own.waiting.indexOf(entry);
          if (at >= 0) own.waiting.splice(at, 1);
          clearTimeout(timer);
          signal?.removeEventListener('abort', gone);
          reject(why);
        };
        // Nobody reads the answer of a client that has gone: the refusal is only for the logs.
        const gone = () => leave(rateLimited(perCaller));
        const entry = {
          grant: () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', gone);
            resolve(releaseOf(caller, own));
          },
        };
        const timer = setTimeout(() => leave(rateLimited(perCaller)), waitMs);
        signal?.addEventListener('abort', gone, { once: true });
        own.waiting.push(entry);
      });
    },
    /** The caller's heavy reads under way now. */
    inFlight: (caller: string) => callers.get(caller)?.inFlight ?? 0,
    /** The caller's heavy reads waiting for a slot now. */
    waiting: (caller: string) => callers.get(caller)?.waiting.length ?? 0,
  };
};

export type ReadSlots = ReturnType<typeof createReadSlots>;
