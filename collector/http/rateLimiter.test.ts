import { expect, test } from 'vitest';
import { createRateLimiter } from './rateLimiter';

test('a bucket lets a burst through, then one request per 1/rate seconds', () => {
  let now = 0;
  const limiter = createRateLimiter({ perSecond: 10, burst: 3, now: () => now });
  expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
  expect(limiter.take('a')).toBeCloseTo(100);
  now += 100;
  expect(limiter.take('a')).toBe(0);
  expect(limiter.take('a')).toBeCloseTo(100);
  // Another key has its own bucket.
  expect(limiter.take('b')).toBe(0);
});

test('tokens never pile up beyond the burst', () => {
  let now = 0;
  const limiter = createRateLimiter({ perSecond: 1, burst: 2, now: () => now });
  limiter.take('a');
  now += 3_600_000;
  expect([limiter.take('a'), limiter.take('a')]).toEqual([0, 0]);
  expect(limiter.take('a')).toBeGreaterThan(0);
});

test('the number of buckets is bounded: the oldest is dropped', () => {
  let now = 0;
  const limiter = createRateLimiter({ perSecond: 1, burst: 1, maxKeys: 2, now: () => now });
  limiter.take('a');
  limiter.take('b');
  limiter.take('c');
  // "a" was dropped, so it starts again with a full bucket; "c" is still empty.
  expect(limiter.take('a')).toBe(0);
  expect(limiter.take('c')).toBeGreaterThan(0);
});

test('a bucket that has filled up again is let go: memory holds the recent clients, not maxKeys', () => {
  let now = 0;
  const limiter = createRateLimiter({ perSecond: 10, burst: 20, maxKeys: 1_000_000, now: () => now });
  for (let n = 0; n < 50_000; n++) {
    now = n; // a new client every millisecond; a bucket is full again after 2 s
    limiter.take(`203.0.113.${n}`);
  }
  expect(limiter.size()).toBeLessThanOrEqual(2001);
  // A client seen within the last 2 s still has its partly used bucket.
  const recent = `203.0.113.${49_999}`;
  for (let n = 0; n < 19; n++) expect(limiter.take(recent)).toBe(0);
  expect(limiter.take(recent)).toBeGreaterThan(0);
});
