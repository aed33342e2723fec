import { expect, test } from 'vitest';
import { pageViewsShare } from './pageViewsShare';
import { trendBuckets } from './trendBuckets';

const HOUR = 3_600_000;
const at = (day: number, hour = 0, minute = 0) => Date.UTC(2026, 0, day, hour, minute);

test('a range of 48 hours or less has hourly buckets on whole UTC hours, the last one incomplete', () => {
  const trend = trendBuckets(at(1, 0, 15), at(1, 2, 30));
  expect(trend.interval).toBe('hour');
  expect(trend.start).toBe(at(1));
  expect(trend.buckets).toEqual([
    { start: at(1, 0), incomplete: false },
    { start: at(1, 1), incomplete: false },
    { start: at(1, 2), incomplete: true },
  ]);
  expect(trendBuckets(at(1), at(3)).interval).toBe('hour');
  expect(trendBuckets(at(1), at(3)).buckets).toHaveLength(48);
});

test('beyond 48 hours the buckets are UTC days', () => {
  const trend = trendBuckets(at(1, 5), at(3, 5, 1));
  expect(trend.interval).toBe('day');
  expect(trend.bucketMs).toBe(24 * HOUR);
  expect(trend.buckets.map((bucket) => bucket.start)).toEqual([at(1), at(2), at(3)]);
  expect(trend.buckets.map((bucket) => bucket.incomplete)).toEqual([false, false, true]);
});

test('a range ending on a bucket boundary has no incomplete bucket; an empty range still has one bucket', () => {
  expect(trendBuckets(at(1), at(5)).buckets.every((bucket) => !bucket.incomplete)).toBe(true);
  expect(trendBuckets(at(1), at(5)).buckets).toHaveLength(4);
  expect(trendBuckets(at(1, 3), at(1, 3)).buckets).toEqual([{ start: at(1, 3), incomplete: true }]);
});

test('the page views share is 0..1 and never divides by zero', () => {
  expect(pageViewsShare(5, 200)).toBe(0.025);
  expect(pageViewsShare(5, 0)).toBe(0);
  expect(pageViewsShare(0, 0)).toBe(0);
  expect(pageViewsShare(30, 10)).toBe(1);
});
