const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Ranges up to this long get hourly buckets; longer ones daily (docs/issues.md, "The API"). */
export const HOURLY_UP_TO = 48 * HOUR;

/** The buckets of an issue's trend: their interval and each one's start (ms), the last marked when the range ends inside it. */
export interface TrendBuckets {
  interval: 'hour' | 'day';
  bucketMs: number;
  /** Where the first bucket starts: the range's start, floored to its whole UTC hour or day. */
  start: number;
  buckets: Array<{ start: number; incomplete: boolean }>;
}

/**
 * The buckets of a trend from `since` to `until` (ms): hourly when the range is 48 hours or less,
 * daily beyond, on whole UTC hours or days so that every list's buckets line up; the last bucket is
 * `incomplete` when `until` falls inside it (a bucket still filling is not a drop).
 *
 * @example
 * trendBuckets(Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1, 2, 30)).buckets.length // 3, hourly, the third incomplete
 */
export const trendBuckets = (since: number, until: number): TrendBuckets => {
  const interval = until - since <= HOURLY_UP_TO ? 'hour' : 'day';
  const bucketMs = interval == 'hour' ? HOUR : DAY;
  const start = Math.floor(since / bucketMs) * bucketMs;
  const count = Math.max(1, Math.ceil((until - start) / bucketMs));
  const buckets = Array.from({ length: count }, (_, index) => {
    const at = start + index * bucketMs;
    return { start: at, incomplete: at + bucketMs > until };
  });
  return { interval, bucketMs, start, buckets };
};
