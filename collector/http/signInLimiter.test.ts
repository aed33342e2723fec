import { expect, test } from 'vitest';
import { createSignInLimiter } from './signInLimiter';

test('ten failures within a minute block the key until the oldest is a minute old; other keys are not affected', () => {
  let time = 0;
  const limiter = createSignInLimiter({ now: () => time });
  for (let i = 0; i < 10; i++) {
    expect(limiter.blockedFor('ip')).toBe(0);
    limiter.fail('ip');
    time += 1000;
  }
  expect(limiter.blockedFor('ip')).toBe(50_000);
  expect(limiter.blockedFor('other')).toBe(0);
  time = 60_001;
  expect(limiter.blockedFor('ip')).toBe(0);
});

test('memory stays bounded under a flood of keys', () => {
  const limiter = createSignInLimiter({ maxKeys: 3, max: 1 });
  for (const key of ['a', 'b', 'c', 'd']) limiter.fail(key);
  expect(limiter.blockedFor('a')).toBe(0);
  expect(limiter.blockedFor('d')).toBeGreaterThan(0);
});

test('an attempt counts from its start: running attempts block like failures, a withdrawn one is given back', () => {
  let time = 0;
  const limiter = createSignInLimiter({ max: 3, now: () => time });
  const attempts = [limiter.start('ip'), limiter.start('ip'), limiter.start('ip')];
  expect(limiter.blockedFor('ip')).toBe(60_000);
  attempts[0]!.withdraw();
  expect(limiter.blockedFor('ip')).toBe(0);
  time = 5000;
  attempts[1]!.fail();
  attempts[2]!.fail();
  // Ending twice changes nothing.
  attempts[2]!.withdraw();
  limiter.fail('ip');
  // The failures count from when they ended.
  expect(limiter.blockedFor('ip')).toBe(60_000);
  time = 65_001;
  expect(limiter.blockedFor('ip')).toBe(0);
});
