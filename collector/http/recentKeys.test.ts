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
