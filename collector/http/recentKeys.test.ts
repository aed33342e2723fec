import { expect, test } from 'vitest';
import { createRecentKeys } from './recentKeys';

test('a key is seen again within the window, not after it, and forget() undoes a first sighting', () => {
  let time = 0;
  const recent = createRecentKeys({ windowMs: 3000, now: () => time });
  expect(recent.seen('a')).toBe(false);
  time = 2999;
  expect(recent.seen('a')).toBe(true);
  expect(recent.seen('b')).toBe(false);
  time = 3001;
  expect(recent.seen('a')).toBe(false);
  recent.forget('b');
  expect(recent.seen('b')).toBe(false);
});

test('memory is bounded: past maxKeys the oldest key is forgotten', () => {
  const recent = createRecentKeys({ windowMs: 60_000, maxKeys: 3, now: () => 0 });
  for (const key of ['a', 'b', 'c', 'd']) expect(recent.seen(key)).toBe(false);
  expect(recent.seen('a')).toBe(false);
  expect(recent.seen('d')).toBe(true);
});

test('expired keys are let go as time passes: memory holds the window, not maxKeys', () => {
  let time = 0;
  const recent = createRecentKeys({ windowMs: 1000, maxKeys: 1_000_000, now: () => time });
  for (let n = 0; n < 100_000; n++) {
    time = n; // a new key every millisecond
    recent.seen(`k${n}`);
  }
  expect(recent.size()).toBeLessThanOrEqual(1001);
  expect(recent.seen('k99500')).toBe(true);
  expect(recent.seen('k98000')).toBe(false);
});

test("a key forgotten and seen again, or past maxKeys, is let go by its latest sighting's time, not an earlier one's", () => {
  let time = 0;
  const recent = createRecentKeys({ windowMs: 1000, maxKeys: 2, now: () => time });
  expect(recent.seen('a')).toBe(false);
  recent.forget('a');
  time = 500;
  expect(recent.seen('a')).toBe(false);
  // Its first sighting (at 0) has expired; the one at 500 has not.
  time = 1200;
  expect(recent.seen('a')).toBe(true);
  expect(recent.seen('b')).toBe(false);
  // A third key: the oldest held (a, from 500) is forgotten; b stays.
  expect(recent.seen('c')).toBe(false);
  expect(recent.size()).toBe(2);
  expect(recent.seen('b')).toBe(true);
  expect(recent.seen('a')).toBe(false);
  time = 1600;
  expect(recent.seen('c')).toBe(true);
});
