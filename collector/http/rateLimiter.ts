/**
 * A token bucket per key: `perSecond` tokens a second, at most `burst` saved up. `take(key)`
 * answers 0 when a request may go, else the milliseconds until it may.
 *
 * Buckets are kept in a Map: one that has filled up again is dropped (a full bucket is what a new
 * key gets anyway), and past `maxKeys` the oldest is, so a flood of addresses cannot grow memory
 * without end.
 *
 * @example
 * const perIp = createRateLimiter({ perSecond: 20, burst: 60 });
 * const waitMs = perIp.take('203.0.113.9');
 */
export const createRateLimiter = ({
  perSecond,
  burst = perSecond * 2,
  maxKeys = 100_000,
  now = () => performance.now(),
}: {
  perSecond: number;
  burst?: number;
  maxKeys?: number;
  now?: () => number;
}) => {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key: string): number {
      const time = now();
      // Least recently used first: a bucket untouched for burst / perSecond seconds is full again,
      // the same as a new one, and is dropped (docs/performance.md, "Memory": memory holds the
      // clients of the last seconds, not maxKeys of them).
      for (const [oldest, idle] of buckets) {
        if (((time - idle.at) / 1000) * perSecond < burst) break;
        buckets.delete(oldest);
      }
      let bucket = buckets.get(key);
      if (bucket) {
        bucket.tokens = Math.min(burst, bucket.tokens + ((time - bucket.at) / 1000) * perSecond);
        bucket.at = time;
        // Map order is insertion order: re-inserting keeps recently seen keys at the end.
        buckets.delete(key);
      } else {
        bucket = { tokens: burst, at: time };
        if (buckets.size >= maxKeys) buckets.delete(buckets.keys().next().value!);
      }
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return ((1 - bucket.tokens) / perSecond) * 1000;
    },
    /** How many buckets are held. */
    size: () => buckets.size,
  };
};

/** Rate limits of `createCollector()`: requests per second; 0 turns one off. */
export interface RateLimits {
  /** Per client IP address (default 20/s, bursts of 2 s). */
  perIp: number;
  /** Per site, all clients together (default 500/s, bursts of 2 s). */
  perSite: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { perIp: 20, perSite: 500 };
